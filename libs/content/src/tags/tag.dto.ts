import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class TagListQuery {
  @IsOptional()
  @IsString({ message: '关键词格式不正确' })
  @MaxLength(50, { message: '关键词不能超过50个字符' })
  keyword?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit 必须是 1-500 的整数' })
  @Min(1, { message: 'limit 必须是 1-500 的整数' })
  @Max(500, { message: 'limit 必须是 1-500 的整数' })
  limit: number = 100;
}

export class HotTagQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit 必须是 1-50 的整数' })
  @Min(1, { message: 'limit 必须是 1-50 的整数' })
  @Max(50, { message: 'limit 必须是 1-50 的整数' })
  limit: number = 5;
}
