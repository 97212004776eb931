import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { createValidationPipe } from './validation.pipe';

class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page 必须是整数' })
  @Min(1, { message: 'page 必须是整数' })
  page: number = 1;
}

describe('the edge validation pipe on queries', () => {
  const pipe = createValidationPipe();
  const asQuery = { type: 'query' as const, metatype: PageQuery, data: '' };

  it('answers a query seen before with a fresh copy of what checking it gave', async () => {
    const first = (await pipe.transform({ page: '2' }, asQuery)) as PageQuery;
    const again = (await pipe.transform({ page: '2' }, asQuery)) as PageQuery;
    expect(first).toEqual({ page: 2 });
    expect(again).toEqual({ page: 2 });
    expect(again).toBeInstanceOf(PageQuery);
    expect(again).not.toBe(first);
    again.page = 9;
    expect(await pipe.transform({ page: '2' }, asQuery)).toEqual({ page: 2 });
  });

  it('refuses a bad query every time it comes', async () => {
    for (let i = 0; i < 2; i++) await expect(pipe.transform({ page: '0' }, asQuery)).rejects.toThrow(new BadRequestException('page 必须是整数'));
  });
});
