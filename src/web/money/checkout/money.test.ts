import { describe, expect, it } from 'vitest';
import { ApiError } from '../../app/api.ts';
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

  it('names them from the API’s error code whatever language its text is in, and shows any other refusal as the API words it', () => {
    const problem = (code: string, detail: string, status = 402) => new ApiError(status, { type: 'about:blank', title: 'Payment Required', status, code, detail });
    expect(cardFailureText(t, problem('payments.failure.declined', 'Votre carte a été refusée'))).toBe('card.declined');
    expect(cardFailureText(t, problem('payments.failure.insufficient_funds', 'Your card has insufficient funds'))).toBe('card.insufficient');
    expect(cardFailureText(t, problem('payments.failure.expired_card', 'Votre carte a expiré'))).toBe('card.expired');
    expect(cardFailureText(t, problem('payments.provider.unavailable', 'Le prestataire de paiement est indisponible', 503))).toBe('card.failed Le prestataire de paiement est indisponible');
  });
});
