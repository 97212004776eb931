import { toPlainText } from '@shiliu/platform';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CreateCommentDto } from '../comments/comment.dto';
import { PostFormDto } from '../posts/post.dto';

/** The note edit form of the back office: the author's form plus the view count (min 0). */
export class AdminUpdatePostDto extends PostFormDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '浏览量必须是不小于0的整数' })
  @Min(0, { message: '浏览量必须是不小于0的整数' })
  @Max(2_147_483_647, { message: '浏览量过大' })
  view_count?: number;
}

/** The note create form (admin-and-startup.md §3): whose note it is, by product ID or numeric id. */
export class AdminCreatePostDto extends AdminUpdatePostDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入作者的小石榴号' })
  @IsNotEmpty({ message: '请输入作者的小石榴号' })
  @MaxLength(32, { message: '作者不存在' })
  user_id!: string;
}

/** The comment create form (§5: post_id and content required), written as the named user. */
export class AdminCreateCommentDto extends CreateCommentDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入评论者的小石榴号' })
  @IsNotEmpty({ message: '请输入评论者的小石榴号' })
  @MaxLength(32, { message: '用户不存在' })
  user_id!: string;
}
