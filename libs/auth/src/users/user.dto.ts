import { plainText, toPlainText, IsVisibleText } from '@shiliu/platform';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

export const GENDERS = ['男', '女', '保密'] as const;
export const ZODIAC_SIGNS = ['白羊座', '金牛座', '双子座', '巨蟹座', '狮子座', '处女座', '天秤座', '天蝎座', '射手座', '摩羯座', '水瓶座', '双鱼座'] as const;
export const EDUCATION_LEVELS = ['高中', '大专', '本科', '硕士', '博士'] as const;

/** Interests arrive as an array, a JSON array string or a comma string (spec §3); they are kept as an array. */
function toInterests({ value }: { value: unknown }): unknown {
  let list = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        list = JSON.parse(text);
      } catch {
        return value;
      }
    } else {
      list = text === '' ? [] : text.split(/[,，]/);
    }
  }
  return Array.isArray(list) ? list.map((item) => (typeof item === 'string' ? plainText(item) : item)).filter((item) => item !== '') : list;
}

/** Every field optional; an empty string clears an optional field. */
export class UpdateProfileDto {
  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: '请输入昵称' })
  @IsNotEmpty({ message: '请输入昵称' })
  @Length(2, 10, { message: '昵称长度为2-10个字符' })
  @IsVisibleText({ message: '昵称不能只包含空白或不可见字符' })
  nickname?: string;

  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: '个人简介格式不正确' })
  @MaxLength(200, { message: '个人简介最多200个字符' })
  bio?: string;

  @IsOptional()
  @IsString({ message: '头像地址不正确' })
  @Matches(/^(\/api\/files\/[A-Za-z0-9_-][A-Za-z0-9/_.-]{0,300}|\/default-avatar\.svg)$/, { message: '头像必须是已上传的图片' })
  avatar?: string;

  @IsOptional()
  @IsIn([...GENDERS, ''], { message: '性别只能是男、女或保密' })
  gender?: string;

  @IsOptional()
  @IsIn([...ZODIAC_SIGNS, ''], { message: '星座不正确' })
  zodiac_sign?: string;

  @IsOptional()
  @Matches(/^$|^[EIei][SNsn][TFtf][JPjp]$/, { message: 'MBTI 格式不正确' })
  mbti?: string;

  @IsOptional()
  @IsIn([...EDUCATION_LEVELS, ''], { message: '学历不正确' })
  education?: string;

  @IsOptional()
  @Transform(toPlainText)
  @IsString({ message: '专业格式不正确' })
  @MaxLength(11, { message: '专业最多11个字符' })
  major?: string;

  @IsOptional()
  @Transform(toInterests)
  @ArrayMaxSize(5, { message: '兴趣爱好最多5个' })
  @ArrayUnique({ message: '兴趣爱好不能重复' })
  @IsString({ each: true, message: '兴趣爱好格式不正确' })
  @MaxLength(8, { each: true, message: '每个兴趣爱好最多8个字符' })
  interests?: string[];
}

export class ChangePasswordDto {
  @IsString({ message: '请输入当前密码' })
  @IsNotEmpty({ message: '请输入当前密码' })
  @MaxLength(100, { message: '当前密码错误' })
  currentPassword!: string;

  @IsString({ message: '请输入新密码' })
  @IsNotEmpty({ message: '请输入新密码' })
  @MinLength(6, { message: '新密码至少需要6位' })
  @MaxLength(20, { message: '新密码最多20位' })
  newPassword!: string;
}

export class SearchUsersQuery {
  @Transform(toPlainText)
  @IsString({ message: '请输入搜索关键词' })
  @IsNotEmpty({ message: '请输入搜索关键词' })
  @MaxLength(50, { message: '搜索关键词最多50个字符' })
  keyword!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit 必须是 1-50 的整数' })
  @Min(1, { message: 'limit 必须是 1-50 的整数' })
  @Max(50, { message: 'limit 必须是 1-50 的整数' })
  limit: number = 50;
}
