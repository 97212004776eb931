import 'reflect-metadata';
import { authService } from '@shiliu/auth';
import { contentService } from '@shiliu/content';
import { runEmbedded } from '@shiliu/gateway/embedded';
import { mediaService } from '@shiliu/media';
import { notifyService } from '@shiliu/notify';
import { searchService } from '@shiliu/search';
import { socialService } from '@shiliu/social';

void runEmbedded([authService, contentService, socialService, notifyService, searchService, mediaService]);
