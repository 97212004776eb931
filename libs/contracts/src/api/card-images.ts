/**
 * A note's `images` as every list answers them (feeds, profile tabs, search; DESIGN.md §4): a card shows
 * `images[0]`, so a video note's cover leads.
 */
export function cardImages(type: number, images: string[], cover: string | null): string[] {
  return type === 2 && cover && images[0] !== cover ? [cover, ...images] : images;
}
