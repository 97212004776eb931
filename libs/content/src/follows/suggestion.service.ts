import { Injectable } from '@nestjs/common';
import { FollowGraphRepository } from './follow-graph.repository';
import { type Suggestions, toSuggestedUser } from './suggestion.view';

/** People to follow: the most followed students in the viewer's interests first, then the most followed overall. */
@Injectable()
export class SuggestionService {
  constructor(private readonly graph: FollowGraphRepository) {}

  /** `follow_count` is how many the viewer follows, so the 关注 feed's empty state can tell its two cases apart. */
  async suggest(viewerId: string, limit: number): Promise<Suggestions> {
    const interested = await this.graph.suggestions(viewerId, limit, true, []);
    const rest = interested.length < limit ? await this.graph.suggestions(viewerId, limit - interested.length, false, interested.map((row) => row.id)) : [];
    return { users: [...interested, ...rest].map(toSuggestedUser), follow_count: await this.graph.followCount(viewerId) };
  }
}
