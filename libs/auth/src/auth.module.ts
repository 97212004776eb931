import { Module } from '@nestjs/common';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsService } from './accounts/accounts.service';
import { AdminAuthController } from './admins/admin-auth.controller';
import { AdminsService } from './admins/admins.service';
import { AUTH_CONFIG, loadAuthConfig } from './auth.config';
import { CaptchaService } from './captcha/captcha.service';
import { AuthRateLimits } from './security/auth-rate-limits';
import { FieldCipher } from './security/field-cipher';
import { IpLocation } from './security/ip-location';
import { PasswordHasher } from './security/password-hasher';
import { TokenSigner } from './security/token-signer';
import { SessionsService } from './sessions/sessions.service';
import { UserAnnouncer } from './users/user-announcer.handler';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';
import { VerificationController } from './verification/verification.controller';
import { VerificationService } from './verification/verification.service';

/** The identity service (DESIGN.md §1): accounts, profiles, sessions, captcha, administrators, verification. */
@Module({
  // Verification's literal paths are registered before the users controller's ':user_id' ones.
  controllers: [AccountsController, VerificationController, UsersController, AdminAuthController, UserAnnouncer],
  providers: [
    { provide: AUTH_CONFIG, useFactory: () => loadAuthConfig() },
    AccountsService,
    AdminsService,
    AuthRateLimits,
    CaptchaService,
    FieldCipher,
    IpLocation,
    PasswordHasher,
    SessionsService,
    TokenSigner,
    UsersService,
    VerificationService,
  ],
  exports: [UsersService, VerificationService, AdminsService],
})
export class AuthModule {}
