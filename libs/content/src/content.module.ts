import { Module } from '@nestjs/common';
import { BannedWordsModule } from '@shiliu/platform';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { adminControllers, adminProviders } from './admin/admin.providers';
import { AccountRemovalService } from './authors/account-removal.service';
import { AuthorRepository } from './authors/author.repository';
import { RefreshAuthorSnapshotWhenUserChanges } from './authors/refresh-author-snapshot-when-user-changes.handler';
import { RemoveContentWhenUserIsDeleted } from './authors/remove-content-when-user-is-deleted.handler';
import { CategoryController } from './categories/category.controller';
import { CategoryRepository } from './categories/category.repository';
import { CommentController } from './comments/comment.controller';
import { CommentRepository } from './comments/comment.repository';
import { CommentService } from './comments/comment.service';
import { FollowGraphRepository } from './follows/follow-graph.repository';
import { ForgetFollowWhenUserUnfollows } from './follows/forget-follow-when-user-unfollows.handler';
import { RememberFollowWhenUserFollows } from './follows/remember-follow-when-user-follows.handler';
import { SuggestionController } from './follows/suggestion.controller';
import { SuggestionService } from './follows/suggestion.service';
import { FeedRankings } from './posts/feed-rankings';
import { RecommendRepository } from './posts/recommend.repository';
import { RecommendService } from './posts/recommend.service';
import { PostAnnouncer } from './posts/post-announcer.handler';
import { PostController } from './posts/post.controller';
import { PostRepository } from './posts/post.repository';
import { PostService } from './posts/post.service';
import { RelatedPostRepository } from './posts/related-post.repository';
import { SaveImageDetailsWhenImageIsProcessed } from './posts/save-image-details-when-image-is-processed.handler';
import { SwitchNotesToPlayableVideoWhenVideoIsProcessed } from './posts/switch-notes-to-playable-video-when-video-is-processed.handler';
import { ViewCounter } from './posts/view-counter';
import { ReactionController } from './reactions/reaction.controller';
import { ReactionRepository } from './reactions/reaction.repository';
import { ReactionService } from './reactions/reaction.service';
import { MediaObjects } from './shared/media-objects';
import { ReadCache } from './shared/read-cache';
import { ReadYourWritesInterceptor } from './shared/read-your-writes.interceptor';
import { TagController } from './tags/tag.controller';
import { TagRepository } from './tags/tag.repository';
import { UserContentController } from './users/user-content.controller';

/** The content service (DESIGN.md §1): notes and drafts, feeds, categories, tags, comments, likes, collections, views. */
@Module({
  imports: [BannedWordsModule],
  controllers: [
    CategoryController,
    PostController,
    CommentController,
    ReactionController,
    TagController,
    UserContentController,
    SuggestionController,
    RefreshAuthorSnapshotWhenUserChanges,
    RememberFollowWhenUserFollows,
    ForgetFollowWhenUserUnfollows,
    RemoveContentWhenUserIsDeleted,
    SaveImageDetailsWhenImageIsProcessed,
    SwitchNotesToPlayableVideoWhenVideoIsProcessed,
    PostAnnouncer,
    ...adminControllers,
  ],
  providers: [
    AuthorRepository,
    FollowGraphRepository,
    CategoryRepository,
    PostRepository,
    RelatedPostRepository,
    CommentRepository,
    TagRepository,
    ReactionRepository,
    MediaObjects,
    ReadCache,
    { provide: APP_INTERCEPTOR, useClass: ReadYourWritesInterceptor },
    PostService,
    ViewCounter,
    FeedRankings,
    RecommendRepository,
    RecommendService,
    CommentService,
    ReactionService,
    SuggestionService,
    AccountRemovalService,
    ...adminProviders,
  ],
  exports: [PostService, CommentService, ReactionService],
})
export class ContentModule {}
