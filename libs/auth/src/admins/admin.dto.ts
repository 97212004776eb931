import { toPlainText } from '@shiliu/platform';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { SignInCaptchaDto } from '../accounts/account.dto';

export class AdminLoginDto extends SignInCaptchaDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入用户名' })
  @IsNotEmpty({ message: '请输入用户名' })
  @MinLength(2, { message: '用户名至少2个字符' })
  @MaxLength(50, { message: '登录失败，请检查用户名和密码' })
  username!: string;

  @IsString({ message: '请输入密码' })
  @IsNotEmpty({ message: '请输入密码' })
  @MinLength(6, { message: '密码至少需要6位' })
  @MaxLength(100, { message: '登录失败，请检查用户名和密码' })
  password!: string;
}

export class CreateAdminDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入用户名' })
  @Matches(/^[A-Za-z0-9_]{2,50}$/, { message: '用户名为2-50位字母、数字或下划线' })
  username!: string;

  @IsString({ message: '请输入密码' })
  @MinLength(6, { message: '密码至少需要6位' })
  @MaxLength(100, { message: '密码最多100位' })
  password!: string;
}

export class AdminPasswordDto {
  @IsString({ message: '请输入新密码' })
  @MinLength(6, { message: '新密码至少需要6位' })
  @MaxLength(100, { message: '新密码最多100位' })
  password!: string;
}
