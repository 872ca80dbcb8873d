import { Box, Button, Card, CardActions, CardContent, Chip, Container, MenuItem, Paper, Stack, TextField, ThemeProvider, Typography, useTheme } from '@mui/material';
import { DataGrid } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import { gridLocaleText } from '../ui/gridLocale.ts';
import { makeTheme } from '../shell/theme.tsx';

const swatches = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;
const type = ['h1', 'h2', 'h3', 'h4', 'body1', 'body2', 'caption'] as const;

function Sample() {
  const { t, i18n } = useTranslation('site');
  const theme = useTheme();
  return (
    <Paper sx={{ p: { xs: 2, md: 3 }, display: 'grid', gap: 3 }} square>
      <Typography variant="overline" component="h2">
        {t(`lsg.mode.${theme.palette.mode}`)}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))', gap: 1 }}>
        {swatches.map((c) => (
          <Box key={c} sx={{ bgcolor: `${c}.main`, color: `${c}.contrastText`, p: 1.5, borderRadius: 1 }}>
            <Typography variant="body2" sx={{ fontWeight: 700 }}>
              {c}
            </Typography>
            <Typography variant="caption">{theme.palette[c].main}</Typography>
          </Box>
        ))}
      </Box>
      <Box>
        {type.map((v) => (
          <Typography key={v} variant={v} component="p" sx={{ mb: 0.5 }}>
            {v} · {t('lsg.pangram')}
          </Typography>
        ))}
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="contained">{t('lsg.primary')}</Button>
        <Button variant="contained" color="secondary">
          {t('lsg.secondary')}
        </Button>
        <Button variant="outlined">{t('lsg.outlined')}</Button>
        <Button>{t('lsg.text')}</Button>
        <Button variant="contained" disabled>
          {t('lsg.disabled')}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Chip label={t('lsg.running')} color="success" />
        <Chip label={t('lsg.stopped')} />
        <Chip label={t('lsg.crashed')} color="error" variant="outlined" />
        <Chip label={t('lsg.new')} color="secondary" />
      </Stack>
      <Card sx={{ maxWidth: 360 }}>
        <CardContent>
          <Typography variant="h4" component="h3">
            {t('lsg.cardTitle')}
          </Typography>
          <Typography color="text.secondary">{t('lsg.cardBody')}</Typography>
        </CardContent>
        <CardActions>
          <Button size="small">{t('lsg.primary')}</Button>
        </CardActions>
      </Card>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField label={t('lsg.field')} helperText={t('lsg.helper')} />
        <TextField label={t('lsg.select')} select defaultValue="survival">
          <MenuItem value="survival">{t('lsg.survival')}</MenuItem>
          <MenuItem value="creative">{t('lsg.creative')}</MenuItem>
        </TextField>
        <TextField label={t('lsg.field')} error helperText={t('lsg.error')} />
      </Box>
      <DataGrid
        aria-label={t('lsg.table')}
        rows={[
          { id: 1, name: t('lsg.survival'), status: t('lsg.running'), players: '7/20' },
          { id: 2, name: 'SkyWars', status: t('lsg.stopped'), players: '0/12' },
        ]}
        columns={[
          { field: 'name', headerName: t('lsg.server'), flex: 1, minWidth: 120 },
          { field: 'status', headerName: t('lsg.status'), width: 130 },
          { field: 'players', headerName: t('lsg.players'), width: 100, align: 'right', headerAlign: 'right' },
        ]}
        localeText={gridLocaleText(i18n.language)}
        hideFooter
        disableColumnMenu
        disableRowSelectionOnClick
      />
    </Paper>
  );
}

/** The living style guide: the theme's parts, side by side in light and dark. */
export default function StyleGuidePage() {
  const { t, i18n } = useTranslation('site');
  return (
    <Container maxWidth="xl" sx={{ py: { xs: 4, md: 6 } }}>
      <Typography variant="h1" sx={{ mb: 3, fontSize: { xs: '2rem', md: '2.6rem' } }}>
        {t('lsg.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        {(['light', 'dark'] as const).map((mode) => (
          <ThemeProvider key={mode} theme={makeTheme(mode, i18n.language)}>
            <Sample />
          </ThemeProvider>
        ))}
      </Box>
    </Container>
  );
}
