import { createContext, useContext } from 'react';

/** Runtime settings from /app-config.json, so one build runs against any issuer or payment provider. */
export interface AppConfig {
  version: string;
  auth: { audience: string; providers: Array<{ id: string; issuer: string; clientId: string }> };
  stripe: { mode: 'sandbox' | 'stripe'; publishableKey: string | null };
  social: { discord: string; twitter: string; youtube: string; instagram: string };
  /** The voice server (MUMBLE_HOST, MUMBLE_PORT); null: none, and no voice chat link. */
  mumble: { host: string; port: number } | null;
}

export async function loadAppConfig(): Promise<AppConfig> {
  const res = await fetch('/app-config.json', { cache: 'no-cache' });
  if (!res.ok) throw new Error(`app-config.json answered ${res.status}`);
  return (await res.json()) as AppConfig;
}

export const AppConfigContext = createContext<AppConfig | null>(null);

export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig outside AppConfigContext');
  return config;
}
