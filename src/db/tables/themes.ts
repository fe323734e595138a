// A survey's own theme (migration 0028; rules in domain/themes).
export interface ThemesTable {
  id: string;
  owner_id: string;
  /** the survey it belongs to (one theme per survey); surveys.theme_id names the row */
  survey_id: string;
  /** #rrggbb colours */
  primary_color: string;
  background_color: string;
  text_color: string;
  /** a key of FONTS (domain/themes) */
  font: string;
  /** square | rounded | pill */
  button_shape: string;
  /** the logo's random name under UPLOAD_DIR, and its content type, or null */
  logo_key: string | null;
  logo_type: string | null;
  /** ISO instant of the last change (the stylesheet's and logo's URLs carry it) */
  updated_at: string;
}

export interface ThemeTables {
  themes: ThemesTable;
}
