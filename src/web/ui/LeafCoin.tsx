import { SvgIcon, type SvgIconProps } from '@mui/material';

/** The credits currency: a gold coin with a leaf. */
export function LeafCoin(props: SvgIconProps) {
  return (
    <SvgIcon viewBox="0 0 24 24" {...props}>
      <circle cx="12" cy="12" r="11" fill="#f5b82e" />
      <circle cx="12" cy="12" r="8.5" fill="#f9cf5c" />
      <path d="M7.5 15.5c0-5 3.5-8 9-8.5-.4 5.6-3.6 9-8.2 9.2l-.8.8v-1.5Z" fill="#2e7d32" />
      <path d="M8 16 13.5 10.5" stroke="#a5d6a7" strokeWidth="1.2" strokeLinecap="round" />
    </SvgIcon>
  );
}
