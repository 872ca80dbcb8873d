import type { PaymentProvider } from './provider.ts';
import { SandboxProvider } from './sandbox.ts';
import { StripeProvider } from './stripe.ts';

export * from './provider.ts';

/** The STRIPE_* settings; all unset means the sandbox. */
export interface PaymentConfig {
  secretKey?: string | undefined;
  webhookSecret?: string | undefined;
  publishableKey?: string | undefined;
  apiUrl?: string | undefined;
}

/** Stripe when STRIPE_SECRET_KEY is set, the sandbox otherwise (docs/architecture.md, Parts and engines). */
export function createPaymentProvider(config: PaymentConfig): PaymentProvider {
  if (!config.secretKey) return new SandboxProvider();
  if (!config.webhookSecret) {
    // Without it no webhook can be trusted, so no payment would ever complete.
    throw new Error('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set: the signing secret (whsec_...) of the webhook endpoint for /v1/payment/stripe/webhook');
  }
  return new StripeProvider({
    secretKey: config.secretKey,
    webhookSecret: config.webhookSecret,
    publishableKey: config.publishableKey ?? null,
    ...(config.apiUrl ? { apiUrl: config.apiUrl } : {}),
  });
}
