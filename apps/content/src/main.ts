import 'reflect-metadata';
import { runServiceProcess } from '@shiliu/platform';
import { contentService } from '@shiliu/content';

void runServiceProcess(contentService);
