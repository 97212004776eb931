import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { type Tab, tabs } from './notification-type';

export class ReadAllQuery {
  @ApiPropertyOptional({ enum: tabs, description: '只标记这一栏；不填则全部' })
  @IsOptional()
  @IsIn(tabs, { message: `type 必须是 ${tabs.join('、')} 之一` })
  type?: Tab;
}
