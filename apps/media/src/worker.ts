import 'reflect-metadata';
import { runMediaWorker } from '@shiliu/media';

void runMediaWorker();
