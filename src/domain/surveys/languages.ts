// The languages a survey can be written or translated in (GET /survey_languages, reference §4.5):
// ISO 639-1 codes (with the usual regional variants), English and native names.
export interface Language {
  id: string;
  name: string;
  native_name: string;
}

export const LANGUAGES: readonly Language[] = [
  { id: 'ar', name: 'Arabic', native_name: 'العربية' },
  { id: 'bg', name: 'Bulgarian', native_name: 'Български' },
  { id: 'ca', name: 'Catalan', native_name: 'Català' },
  { id: 'cs', name: 'Czech', native_name: 'Čeština' },
  { id: 'da', name: 'Danish', native_name: 'Dansk' },
  { id: 'de', name: 'German', native_name: 'Deutsch' },
  { id: 'el', name: 'Greek', native_name: 'Ελληνικά' },
  { id: 'en', name: 'English', native_name: 'English' },
  { id: 'es', name: 'Spanish', native_name: 'Español' },
  { id: 'et', name: 'Estonian', native_name: 'Eesti' },
  { id: 'fa', name: 'Persian', native_name: 'فارسی' },
  { id: 'fi', name: 'Finnish', native_name: 'Suomi' },
  { id: 'fr', name: 'French', native_name: 'Français' },
  { id: 'he', name: 'Hebrew', native_name: 'עברית' },
  { id: 'hi', name: 'Hindi', native_name: 'हिन्दी' },
  { id: 'hr', name: 'Croatian', native_name: 'Hrvatski' },
  { id: 'hu', name: 'Hungarian', native_name: 'Magyar' },
  { id: 'id', name: 'Indonesian', native_name: 'Bahasa Indonesia' },
  { id: 'is', name: 'Icelandic', native_name: 'Íslenska' },
  { id: 'it', name: 'Italian', native_name: 'Italiano' },
  { id: 'ja', name: 'Japanese', native_name: '日本語' },
  { id: 'ko', name: 'Korean', native_name: '한국어' },
  { id: 'lt', name: 'Lithuanian', native_name: 'Lietuvių' },
  { id: 'lv', name: 'Latvian', native_name: 'Latviešu' },
  { id: 'ms', name: 'Malay', native_name: 'Bahasa Melayu' },
  { id: 'nl', name: 'Dutch', native_name: 'Nederlands' },
  { id: 'no', name: 'Norwegian', native_name: 'Norsk' },
  { id: 'pl', name: 'Polish', native_name: 'Polski' },
  { id: 'pt', name: 'Portuguese', native_name: 'Português' },
  { id: 'pt-br', name: 'Portuguese (Brazil)', native_name: 'Português (Brasil)' },
  { id: 'ro', name: 'Romanian', native_name: 'Română' },
  { id: 'ru', name: 'Russian', native_name: 'Русский' },
  { id: 'sk', name: 'Slovak', native_name: 'Slovenčina' },
  { id: 'sl', name: 'Slovenian', native_name: 'Slovenščina' },
  { id: 'sr', name: 'Serbian', native_name: 'Српски' },
  { id: 'sv', name: 'Swedish', native_name: 'Svenska' },
  { id: 'th', name: 'Thai', native_name: 'ไทย' },
  { id: 'tl', name: 'Filipino', native_name: 'Filipino' },
  { id: 'tr', name: 'Turkish', native_name: 'Türkçe' },
  { id: 'uk', name: 'Ukrainian', native_name: 'Українська' },
  { id: 'vi', name: 'Vietnamese', native_name: 'Tiếng Việt' },
  { id: 'zh-cn', name: 'Chinese (Simplified)', native_name: '简体中文' },
  { id: 'zh-tw', name: 'Chinese (Traditional)', native_name: '繁體中文' },
];

const byId = new Map(LANGUAGES.map((l) => [l.id, l]));

export function findLanguage(code: string): Language | undefined {
  return byId.get(code.toLowerCase());
}
