import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsString } from 'class-validator';

export const MAX_STATUS_BATCH = 100;

/** GET /users/follow-status?ids=a,b,c: the follow states of up to 100 users at once. */
export class FollowStatusBatchQuery {
  @ApiProperty({ type: String, description: '逗号分隔的用户 ID（user_id），最多 100 个', example: 'lin_xiaoyu,chen_mo' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [...new Set(value.split(',').map((id) => id.trim()).filter((id) => id !== ''))] : value))
  @ArrayMinSize(1, { message: 'ids 不能为空' })
  @ArrayMaxSize(MAX_STATUS_BATCH, { message: `ids 最多 ${MAX_STATUS_BATCH} 个` })
  @IsString({ each: true, message: 'ids 必须是逗号分隔的用户 ID' })
  ids!: string[];
}
