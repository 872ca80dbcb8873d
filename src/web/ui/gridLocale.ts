import { enUS, frFR } from '@mui/x-data-grid/locales';

/** The data grid's own texts (pager, empty grid...) in the page's language. */
export function gridLocaleText(language: string) {
  return (language === 'en' ? enUS : frFR).components.MuiDataGrid.defaultProps.localeText;
}
