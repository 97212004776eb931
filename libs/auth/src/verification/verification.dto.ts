import { Transform, Type } from 'class-transformer';
import { Allow, IsIn, IsInt } from 'class-validator';

/** `content` arrives as an object or as the same object in a JSON string; its fields are checked per type by the service. */
export class SubmitVerificationDto {
  @Type(() => Number)
  @IsInt({ message: '请选择认证类型' })
  @IsIn([1, 2], { message: '认证类型只能是官方认证(1)或个人认证(2)' })
  type!: 1 | 2;

  @Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  })
  @Allow()
  content!: unknown;
}
