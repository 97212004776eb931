import { AdminCategoriesController, AdminCollectionsController, AdminLikesController, AdminTagsController } from './admin-catalogue.controller';
import { AdminCatalogueRepository } from './admin-catalogue.repository';
import { AdminCatalogueService } from './admin-catalogue.service';
import { AdminCommentsController, AdminPostsController } from './admin-content.controller';
import { AdminContentRepository } from './admin-content.repository';
import { AdminContentService } from './admin-content.service';

/** The back office's part of the content module (admin-and-startup.md §7), kept apart from the student-facing code. */
export const adminControllers = [AdminPostsController, AdminCommentsController, AdminCategoriesController, AdminTagsController, AdminLikesController, AdminCollectionsController];
export const adminProviders = [AdminContentRepository, AdminContentService, AdminCatalogueRepository, AdminCatalogueService];
