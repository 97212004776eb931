import { toPlainText, IsVisibleText } from '@shiliu/platform';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, IsUUID, Length, Matches, MaxLength, MinLength } from 'class-validator';

export const USER_ID_PATTERN = /^[A-Za-z0-9_]{3,15}$/;
export const USER_ID_RULE = '小石榴号只能包含字母、数字和下划线，长度为3-15位';

export class RegisterDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入小石榴号' })
  @IsNotEmpty({ message: '请输入小石榴号' })
  @Matches(USER_ID_PATTERN, { message: USER_ID_RULE })
  user_id!: string;

  @Transform(toPlainText)
  @IsString({ message: '请输入昵称' })
  @IsNotEmpty({ message: '请输入昵称' })
  @Length(2, 10, { message: '昵称长度为2-10个字符' })
  @IsVisibleText({ message: '昵称不能只包含空白或不可见字符' })
  nickname!: string;

  @IsString({ message: '请输入密码' })
  @IsNotEmpty({ message: '请输入密码' })
  @MinLength(6, { message: '密码至少需要6位' })
  @MaxLength(20, { message: '密码最多20位' })
  password!: string;

  @IsString({ message: '请输入验证码' })
  @IsUUID('4', { message: '验证码已失效，请刷新后重试' })
  captchaId!: string;

  @Transform(toPlainText)
  @IsString({ message: '请输入验证码' })
  @IsNotEmpty({ message: '请输入验证码' })
  captchaText!: string;

  /** The client sends these defaults (spec §7); the server decides bio and location itself. */
  @IsOptional()
  @IsString()
  avatar?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200, { message: '个人简介最多200个字符' })
  bio?: string;

  @IsOptional()
  @IsString()
  location?: string;
}

/** Sign-in captcha fields, needed only when an answer asked for them (`captchaRequired`): the account is being guessed at. */
export class SignInCaptchaDto {
  @IsOptional()
  @IsString({ message: '请输入验证码' })
  @IsUUID('4', { message: '验证码已失效，请刷新后重试' })
  captchaId?: string;

  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: '请输入验证码' })
  @MaxLength(10, { message: '验证码错误或已过期，请重新获取' })
  captchaText?: string;
}

export class LoginDto extends SignInCaptchaDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入小石榴号' })
  @IsNotEmpty({ message: '请输入小石榴号' })
  @MaxLength(15, { message: '小石榴号或密码错误' })
  user_id!: string;

  @IsString({ message: '请输入密码' })
  @IsNotEmpty({ message: '请输入密码' })
  @MaxLength(100, { message: '小石榴号或密码错误' })
  password!: string;

}

export class RefreshDto {
  @IsString({ message: '缺少刷新令牌' })
  @IsNotEmpty({ message: '缺少刷新令牌' })
  @MaxLength(200, { message: '刷新令牌无效' })
  refresh_token!: string;
}

export class CheckUserIdQuery {
  @Transform(toPlainText)
  @IsString({ message: '请输入小石榴号' })
  @IsNotEmpty({ message: '请输入小石榴号' })
  user_id!: string;
}
