import { describe, expect, it } from 'vitest';
import { cardFailureText } from './money.ts';

const t = (key: string) => key;

describe("a card failure in the player's words", () => {
  it('names the reasons a player can act on, from a payment’s failureReason (Stripe’s decline codes)', () => {
    expect(cardFailureText(t, 'generic_decline')).toBe('card.declined');
    expect(cardFailureText(t, 'card_declined')).toBe('card.declined');
    expect(cardFailureText(t, 'insufficient_funds')).toBe('card.insufficient');
    expect(cardFailureText(t, 'expired_card')).toBe('card.expired');
    expect(cardFailureText(t, 'processing_error')).toBe('card.generic');
  });
});
