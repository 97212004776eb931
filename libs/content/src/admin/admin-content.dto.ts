import { AdminUserField, toPlainText } from '@shiliu/platform';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
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
  @AdminUserField('请输入作者的小石榴号', '作者不存在')
  user_id!: string;
}

/** The comment create form (§5: post_id and content required), written as the named user. */
export class AdminCreateCommentDto extends CreateCommentDto {
  @AdminUserField('请输入评论者的小石榴号')
  user_id!: string;
}

/** The comment edit form: a new text; the note it sits under may be sent but not changed. */
export class AdminUpdateCommentDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '笔记ID无效' })
  @Min(1, { message: '笔记ID无效' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '笔记ID无效' })
  post_id?: number;

  @IsString({ message: '请输入评论内容' })
  @IsNotEmpty({ message: '请输入评论内容' })
  @MaxLength(20_000, { message: '评论内容不能超过1000个字符' })
  content!: string;
}

/** admin-and-startup.md §5 "Category form". */
export class AdminCategoryDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入分类名称' })
  @IsNotEmpty({ message: '请输入分类名称' })
  @MaxLength(50, { message: '分类名称最多50个字符' })
  name!: string;

  @Transform(toPlainText)
  @IsString({ message: '请输入英文标题' })
  @IsNotEmpty({ message: '请输入英文标题' })
  @MaxLength(50, { message: '英文标题最多50个字符' })
  @Matches(/^[a-z]+$/, { message: '只能输入小写英文字母' })
  category_title!: string;
}

export class AdminTagDto {
  @Transform(toPlainText)
  @IsString({ message: '请输入标签名称' })
  @IsNotEmpty({ message: '请输入标签名称' })
  @MaxLength(8, { message: '标签最多8个字符' })
  name!: string;
}

/** §5 "Like form": user_id, target_type, target_id. */
export class AdminLikeDto {
  @AdminUserField('请输入用户的小石榴号')
  user_id!: string;

  @Type(() => Number)
  @IsIn([1, 2], { message: '点赞对象类型只能是 1（笔记）或 2（评论）' })
  target_type!: 1 | 2;

  @Type(() => Number)
  @IsInt({ message: '请输入点赞对象 ID' })
  @Min(1, { message: '请输入点赞对象 ID' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '点赞对象不存在' })
  target_id!: number;
}

/** §5 "Collection form": user_id, post_id. */
export class AdminCollectionDto {
  @AdminUserField('请输入用户的小石榴号')
  user_id!: string;

  @Type(() => Number)
  @IsInt({ message: '请输入笔记 ID' })
  @Min(1, { message: '请输入笔记 ID' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '笔记不存在' })
  post_id!: number;
}
