import { ApiProperty } from '@nestjs/swagger';

export class StreamTicketView {
  @ApiProperty({ description: '打开一次未读数推送（GET /api/notifications/stream?ticket=…）的一次性票据' }) ticket!: string;
  @ApiProperty({ description: '票据有效秒数' }) expires_in!: number;
}
