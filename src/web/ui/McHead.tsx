import { useEffect, useState } from 'react';
import { Avatar } from '@mui/material';
import { bearer } from '../app/api.ts';

/** docs/product.md, The shell: a Minecraft account without a head or name shows Steve and 'Unknow'. */
export const FALLBACK_HEAD = '/images/steve-head.png';
export const FALLBACK_NAME = 'Unknow';

// The head route wants the bearer token, which an <img src> cannot send: fetch once, show a blob URL.
const heads = new Map<string, Promise<string>>();
function headUrl(uuid: string): Promise<string> {
  let url = heads.get(uuid);
  if (!url) {
    const token = bearer();
    url = fetch(`/v1/user/minecraft/${encodeURIComponent(uuid)}/head`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
      .then((res) => (res.ok ? res.blob() : Promise.reject(new Error(`head answered ${res.status}`))))
      .then((blob) => URL.createObjectURL(blob));
    url.catch(() => heads.delete(uuid));
    heads.set(uuid, url);
  }
  return url;
}

/** A Minecraft head, pixel-sharp; Steve while it loads, when it fails, or without an account. */
export function McHead({ uuid, name, size = 32 }: { uuid: string | null | undefined; name?: string | null; size?: number }) {
  const [loaded, setLoaded] = useState<{ uuid: string; src: string } | null>(null);
  useEffect(() => {
    if (!uuid) return;
    let live = true;
    headUrl(uuid).then(
      (src) => live && setLoaded({ uuid, src }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [uuid]);
  const src = uuid && loaded?.uuid === uuid ? loaded.src : FALLBACK_HEAD;
  return <Avatar variant="rounded" src={src} alt={name ?? FALLBACK_NAME} data-testid="mc-head" sx={{ width: size, height: size, borderRadius: 1, '& img': { imageRendering: 'pixelated' } }} />;
}
