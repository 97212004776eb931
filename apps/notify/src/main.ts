import 'reflect-metadata';
import { runServiceProcess } from '@shiliu/platform';
import { notifyService } from '@shiliu/notify';

void runServiceProcess(notifyService);
