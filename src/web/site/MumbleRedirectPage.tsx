import { useEffect } from 'react';
import { Button, Container, Link, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';

const MUMBLE_DOWNLOAD = 'https://www.mumble.info/downloads/';

/**
 * Opens the voice server (`host:port`) in the Mumble client, in the game's channel (`?channel=`), with
 * a way out when it is not installed. Mumble's URLs name the channel as a path and want the server's
 * protocol version.
 */
export default function MumbleRedirectPage() {
  const { t } = useTranslation('site');
  const { serverIp = '' } = useParams();
  const channel = useSearchParams()[0].get('channel');
  const target = `mumble://${serverIp}/${channel ? encodeURIComponent(channel) : ''}?version=1.2.0`;
  useEffect(() => {
    if (serverIp) window.location.href = target;
  }, [serverIp, target]);
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, md: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 } }}>
        <Typography variant="h1" sx={{ fontSize: '1.8rem', mb: 2 }}>
          {t('mumble.title')}
        </Typography>
        <Typography sx={{ mb: 3 }}>{channel ? t('mumble.openingChannel', { server: serverIp, channel }) : t('mumble.opening', { server: serverIp })}</Typography>
        <Button variant="contained" href={target} data-testid="mumble-link">
          {t('mumble.open')}
        </Button>
        <Typography variant="h2" sx={{ fontSize: '1.2rem', mt: 4, mb: 1 }}>
          {t('mumble.installTitle')}
        </Typography>
        <Typography>
          {t('mumble.install')}{' '}
          <Link href={MUMBLE_DOWNLOAD} target="_blank" rel="noopener noreferrer" color="secondary">
            mumble.info
          </Link>
        </Typography>
      </Paper>
    </Container>
  );
}
