import { Module } from '@nestjs/common';
import { BannedWordsModule } from '@shiliu/platform';
import { AdminAccountsService } from './admin/admin-accounts.service';
import { AdminAuditService } from './admin/admin-audit.service';
import { AdminAdminsController, AdminAuditController, AdminSessionsController, AdminTestUsersController, AdminUsersController } from './admin/admin-back-office.controller';
import { AdminListsRepository } from './admin/admin-lists.repository';
import { AdminUsersService } from './admin/admin-users.service';
import { UserCounterRepository, UserCountersHandler } from './admin/user-counters.handler';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsService } from './accounts/accounts.service';
import { AdminAuthController } from './admins/admin-auth.controller';
import { AnnounceWhenBackfillRequested } from './announce-when-backfill-requested.handler';
import { AdminRepository } from './admins/admin.repository';
import { AdminsService } from './admins/admins.service';
import { AUTH_CONFIG, loadAuthConfig } from './auth.config';
import { AdminBannedWordsController, BannedWordsController } from './banned-words/banned-words.controller';
import { BannedWordRepository } from './banned-words/banned-word.repository';
import { BannedWordsService } from './banned-words/banned-words.service';
import { CaptchaService } from './captcha/captcha.service';
import { AuthRateLimits } from './security/auth-rate-limits';
import { FieldCipher } from './security/field-cipher';
import { IpLocation } from './security/ip-location';
import { PasswordHasher } from './security/password-hasher';
import { TokenSigner } from './security/token-signer';
import { SessionRepository } from './sessions/session.repository';
import { SessionsService } from './sessions/sessions.service';
import { UserRepository } from './users/user.repository';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';
import { VerificationController } from './verification/verification.controller';
import { VerificationRepository } from './verification/verification.repository';
import { VerificationService } from './verification/verification.service';

/** The identity service (DESIGN.md §1): accounts, profiles, sessions, captcha, administrators, verification, the banned-word list. */
@Module({
  imports: [BannedWordsModule],
  // Verification's literal paths are registered before the users controller's ':user_id' ones.
  controllers: [
    AccountsController,
    VerificationController,
    UsersController,
    AdminAuthController,
    AdminUsersController,
    AdminTestUsersController,
    AdminAuditController,
    AdminSessionsController,
    AdminAdminsController,
    BannedWordsController,
    AdminBannedWordsController,
    AnnounceWhenBackfillRequested,
    UserCountersHandler,
  ],
  providers: [
    { provide: AUTH_CONFIG, useFactory: () => loadAuthConfig() },
    AccountsService,
    AdminAccountsService,
    AdminAuditService,
    AdminListsRepository,
    AdminUsersService,
    UserCounterRepository,
    AdminRepository,
    AdminsService,
    AuthRateLimits,
    BannedWordRepository,
    BannedWordsService,
    CaptchaService,
    FieldCipher,
    IpLocation,
    PasswordHasher,
    SessionRepository,
    SessionsService,
    TokenSigner,
    UserRepository,
    UsersService,
    VerificationRepository,
    VerificationService,
  ],
  exports: [UsersService, VerificationService, AdminsService],
})
export class AuthModule {}
