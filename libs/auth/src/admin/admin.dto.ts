import { OmitType } from '@nestjs/swagger';
import { AdminUserField, toPlainText } from '@shiliu/platform';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { USER_ID_PATTERN } from '../accounts/account.dto';
import { UpdateProfileDto } from '../users/user.dto';
import { SubmitVerificationDto } from '../verification/verification.dto';

const USER_ID_RULE = '小石榴号为3-15位字母、数字或下划线';

/** An administrator's edit of a user: the profile a student edits, plus the product ID, the place and the badge. */
export class AdminUpdateUserDto extends UpdateProfileDto {
  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: USER_ID_RULE })
  @Matches(USER_ID_PATTERN, { message: USER_ID_RULE })
  user_id?: string;

  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: 'IP属地格式不正确' })
  @MaxLength(50, { message: 'IP属地最多50个字符' })
  location?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '认证状态只能是 0、1 或 2' })
  @IsIn([0, 1, 2], { message: '认证状态只能是 0、1 或 2' })
  verified?: 0 | 1 | 2;

  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 1 || value === '1' || value === 'true' ? true : value === 0 || value === '0' || value === 'false' ? false : value))
  @IsBoolean({ message: 'is_active 必须是 true/false 或 1/0' })
  is_active?: boolean;
}

/**
 * A user created by an administrator: product ID, nickname and password as at registration, then the rest. The
 * two required fields are left out of the edit form's rules (which make them optional) and declared here.
 */
export class AdminCreateUserDto extends OmitType(AdminUpdateUserDto, ['user_id', 'nickname'] as const) {
  @Transform(toPlainText)
  @IsString({ message: '请输入小石榴号' })
  @IsNotEmpty({ message: '请输入小石榴号' })
  @Matches(USER_ID_PATTERN, { message: USER_ID_RULE })
  user_id!: string;

  @Transform(toPlainText)
  @IsString({ message: '请输入昵称' })
  @IsNotEmpty({ message: '请输入昵称' })
  @MinLength(2, { message: '昵称长度为2-10个字符' })
  @MaxLength(10, { message: '昵称长度为2-10个字符' })
  nickname!: string;

  @IsString({ message: '请输入密码' })
  @MinLength(6, { message: '密码长度为6-20位' })
  @MaxLength(20, { message: '密码长度为6-20位' })
  password!: string;
}

/** An application filed by an administrator for a user (the audit form: user_id, type, content). */
export class AdminCreateApplicationDto extends SubmitVerificationDto {
  @AdminUserField('请输入用户的小石榴号')
  user_id!: string;
}

export class AdminUpdateApplicationDto {
  @Type(() => Number)
  @IsInt({ message: '状态只能是 0（待审核）、1（已通过）或 2（已拒绝）' })
  @IsIn([0, 1, 2], { message: '状态只能是 0（待审核）、1（已通过）或 2（已拒绝）' })
  status!: 0 | 1 | 2;

  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: '拒绝原因格式不正确' })
  @MaxLength(200, { message: '拒绝原因最多200个字符' })
  reject_reason?: string;
}

/** DESIGN.md §4: the reason is optional (the spec's screen sends no body); `reason` is accepted for `reject_reason`. */
export class RejectApplicationDto {
  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: '请填写拒绝原因' })
  @MaxLength(200, { message: '拒绝原因最多200个字符' })
  reject_reason?: string;

  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: '请填写拒绝原因' })
  @MaxLength(200, { message: '拒绝原因最多200个字符' })
  reason?: string;
}

/** admin-and-startup.md §5 "Session form": user_id required; the session is a sign-in made for that user. */
export class AdminCreateSessionDto {
  @AdminUserField('请输入用户的小石榴号')
  user_id!: string;

  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: 'user_agent 必须是文本' })
  @MaxLength(300, { message: 'user_agent 最多300个字符' })
  user_agent?: string;
}

/** A session can only be ended from the back office. */
export class AdminSessionDto {
  @IsIn([false], { message: '只能将会话设为失效（is_active: false）' })
  is_active!: boolean;
}

/** A bulk delete of sessions: their ids are UUIDs. */
export class SessionIdsDto {
  @IsArray({ message: '请选择要删除的项目' })
  @ArrayMinSize(1, { message: '请选择要删除的项目' })
  @ArrayMaxSize(100, { message: '一次最多删除100项' })
  @IsUUID('all', { each: true, message: '会话 ID 格式不正确' })
  ids!: string[];
}
