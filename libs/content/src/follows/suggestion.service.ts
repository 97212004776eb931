import { Injectable } from '@nestjs/common';
import { FollowGraphRepository } from './follow-graph.repository';
import { type SuggestedUser, toSuggestedUser } from './suggestion.view';

/** People to follow: the most followed students in the viewer's interests first, then the most followed overall. */
@Injectable()
export class SuggestionService {
  constructor(private readonly graph: FollowGraphRepository) {}

  async suggest(viewerId: string, limit: number): Promise<{ users: SuggestedUser[] }> {
    const interested = await this.graph.suggestions(viewerId, limit, true, []);
    const rest = interested.length < limit ? await this.graph.suggestions(viewerId, limit - interested.length, false, interested.map((row) => row.id)) : [];
    return { users: [...interested, ...rest].map(toSuggestedUser) };
  }
}
