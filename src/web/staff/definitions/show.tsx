import { Box, Chip, Table, TableBody, TableCell, TableHead, TableRow, TableContainer, Typography } from '@mui/material';
import { useShow } from '@refinedev/core';
import { Show } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import type { ApiError } from '../../app/api.ts';
import { BackButton, ErrorAlert, Fact, Facts, ViewTitle } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { DeleteDefinition } from './DeleteDefinition.tsx';

/** One definition as players would buy it, with what only staff see: drafts, both languages, every package. */
export function DefinitionShow() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const { query } = useShow<GameDefinition, ApiError>({ resource: 'definitions' });
  const d = query.data?.data;
  return (
    <Show
      goBack={<BackButton />}
      title={<ViewTitle>{d ? d.name[lang === 'en' ? 'en' : 'fr'] : t('definitions.definitions')}</ViewTitle>}
      isLoading={query.isLoading}
      headerButtons={({ defaultButtons }) => (
        <>
          {defaultButtons}
          <DeleteDefinition definition={d} />
        </>
      )}
    >
      <ErrorAlert error={query.error} />
      {d && (
        <>
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '320px 1fr' }, mb: 3 }}>
            <Box sx={{ width: '100%', aspectRatio: '16 / 9', borderRadius: 2, bgcolor: 'action.hover', overflow: 'hidden' }}>
              {d.image && <Box component="img" src={d.image} alt="" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />}
            </Box>
            <Facts>
              <Fact label={t('definitions.fields.published')}>
                <Chip size="small" color={d.published ? 'success' : 'default'} label={d.published ? t('definitions.published') : t('definitions.draft')} />
              </Fact>
              <Fact label={t('definitions.fields.version')}>{d.version}</Fact>
              <Fact label={t('definitions.fields.rating')}>{d.rating.count ? `${d.rating.average?.toFixed(1)} / 5 (${d.rating.count})` : '—'}</Fact>
              <Fact label={t('definitions.fields.gameMode')}>{d.settings.gameMode ? t(`definitions.gameModes.${d.settings.gameMode}`) : t('definitions.fields.default')}</Fact>
              <Fact label={t('definitions.fields.difficulty')}>{d.settings.difficulty ? t(`definitions.difficulties.${d.settings.difficulty}`) : t('definitions.fields.default')}</Fact>
              <Fact label={t('definitions.fields.motd')}>{d.settings.motd || '—'}</Fact>
              <Fact label={t('definitions.fields.seed')}>{d.settings.seed || '—'}</Fact>
              <Fact label={t('definitions.fields.updatedAt')}>{formatDate(d.updatedAt, lang)}</Fact>
            </Facts>
          </Box>
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mb: 3 }}>
            {(['fr', 'en'] as const).map((l) => (
              <Box key={l} lang={l}>
                <Typography variant="overline" color="text.secondary">
                  {t(`definitions.languages.${l}`)}
                </Typography>
                <Typography variant="h4" component="h2">
                  {d.name[l]}
                </Typography>
                <Typography sx={{ whiteSpace: 'pre-line' }}>{d.description[l]}</Typography>
              </Box>
            ))}
          </Box>
          <Typography variant="h4" component="h2" sx={{ mb: 1 }}>
            {t('definitions.fields.packages')}
          </Typography>
          {d.packages.length === 0 ? (
            <Typography color="text.secondary">{t('definitions.packages.empty')}</Typography>
          ) : (
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={t('definitions.fields.packages')}>
                <TableHead>
                  <TableRow>
                    {(['name', 'ramMb', 'maxPlayers', 'periodDays', 'priceCredits'] as const).map((f) => (
                      <TableCell key={f} align={f === 'name' ? 'left' : 'right'}>
                        {t(`definitions.packages.${f}`)}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {d.packages.map((p) => (
                    <TableRow key={p.id}>
                      <TableCell>
                        {p.name[lang === 'en' ? 'en' : 'fr']}
                        <Typography variant="caption" color="text.secondary" component="span" lang={lang === 'en' ? 'fr' : 'en'} sx={{ display: 'block' }}>
                          {p.name[lang === 'en' ? 'fr' : 'en']}
                        </Typography>
                      </TableCell>
                      <TableCell align="right">{p.ramMb}</TableCell>
                      <TableCell align="right">{p.maxPlayers}</TableCell>
                      <TableCell align="right">{p.periodDays}</TableCell>
                      <TableCell align="right">{p.priceCredits}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
    </Show>
  );
}
