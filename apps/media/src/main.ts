import 'reflect-metadata';
import { runServiceProcess } from '@shiliu/platform';
import { mediaService } from '@shiliu/media';

void runServiceProcess(mediaService);
