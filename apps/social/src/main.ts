import 'reflect-metadata';
import { runServiceProcess } from '@shiliu/platform';
import { socialService } from '@shiliu/social';

void runServiceProcess(socialService);
