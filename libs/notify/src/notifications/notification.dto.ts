import { IsIn, IsOptional } from 'class-validator';
import { type Tab, tabs } from './notification-type';

/** Which tab to mark read; all of them when absent. */
export class ReadAllQuery {
  @IsOptional()
  @IsIn(tabs, { message: `type 必须是 ${tabs.join('、')} 之一` })
  type?: Tab;
}
