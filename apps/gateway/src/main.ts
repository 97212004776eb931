import 'reflect-metadata';
import { runDistributedGateway } from '@shiliu/gateway';

void runDistributedGateway();
