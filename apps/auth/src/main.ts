import 'reflect-metadata';
import { runServiceProcess } from '@shiliu/platform';
import { authService } from '@shiliu/auth';

void runServiceProcess(authService);
