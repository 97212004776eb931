import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, type Principal, Reply, UserAuth } from '@shiliu/platform';
import { SubmitVerificationDto } from './verification.dto';
import { VerificationService } from './verification.service';

@ApiTags('verification')
@UserAuth()
@Controller('api/users/verification')
export class VerificationController {
  constructor(private readonly verification: VerificationService) {}

  @ApiOperation({ summary: '提交认证申请（1 官方认证，2 个人认证）' })
  @ApiErrors(409)
  @Post()
  async submit(@CurrentPrincipal() principal: Principal, @Body() body: SubmitVerificationDto) {
    return new Reply('认证申请提交成功，请耐心等待审核', await this.verification.submit(principal.id, body.type, body.content));
  }

  @ApiOperation({ summary: '我的全部认证申请（最新在前；同时有多条时依次以已通过、已拒绝、待审核为准）' })
  @Get('status')
  status(@CurrentPrincipal() principal: Principal) {
    return this.verification.status(principal.id);
  }

  @ApiOperation({ summary: '撤回认证申请' })
  @ApiErrors(404)
  @Delete('revoke')
  async revoke(@CurrentPrincipal() principal: Principal) {
    await this.verification.revoke(principal.id);
    return new Reply('认证申请已撤回', null);
  }
}
