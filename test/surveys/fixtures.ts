// Question bodies used across the survey tests: one of every family and display type.
export const H = (heading: string) => [{ heading }];

export const questionOfEachKind: Record<string, any> = {
  single_vertical: {
    family: 'single_choice',
    subtype: 'vertical',
    headings: [{ heading: 'Favourite colour?', description: 'Pick one' }],
    answers: {
      choices: [{ text: 'Red' }, { text: 'Blue', quiz_options: { score: 1 } }],
      other: [{ text: 'Other', num_chars: 40 }],
    },
    required: { text: 'Please answer.', type: 'all', amount: '0' },
    sorting: { type: 'random', ignore_last: true },
  },
  single_menu: {
    family: 'single_choice',
    subtype: 'menu',
    headings: H('Country?'),
    answers: { choices: [{ text: 'FR' }, { text: 'DE' }] },
  },
  single_image: {
    family: 'single_choice',
    subtype: 'vertical',
    headings: H('Which logo?'),
    display_options: { display_type: 'image_choice', display_subtype: '' },
    answers: {
      choices: [
        { text: 'A', image: { url: 'https://example.com/a.png' } },
        { image: { url: 'https://example.com/b.png' } },
      ],
    },
  },
  multiple: {
    family: 'multiple_choice',
    subtype: 'horiz',
    headings: H('Which fruit?'),
    answers: {
      choices: [{ text: 'Apple' }, { text: 'Pear' }, { text: 'Plum' }],
      other: { text: 'Something else', is_answer_choice: true },
    },
    required: { type: 'at_least', amount: '1' },
  },
  matrix_single: {
    family: 'matrix',
    subtype: 'single',
    headings: H('Rate each'),
    forced_ranking: true,
    answers: {
      rows: [{ text: 'Speed' }, { text: 'Price' }],
      choices: [{ text: 'Bad' }, { text: 'Good' }, { text: 'N/A', is_na: true }],
    },
    required: { type: 'all', amount: '0' },
  },
  matrix_multi: {
    family: 'matrix',
    subtype: 'multi',
    headings: H('Which apply'),
    answers: {
      rows: [{ text: 'Mon' }, { text: 'Tue' }],
      choices: [{ text: 'AM' }, { text: 'PM' }],
      other: { text: 'Comment', is_answer_choice: false },
    },
  },
  matrix_rating: {
    family: 'matrix',
    subtype: 'rating',
    headings: H('Agree?'),
    answers: {
      rows: [{ text: 'It is fast' }],
      choices: [
        { text: 'No', weight: 1 },
        { text: 'Yes', weight: 2, description: 'fully' },
      ],
    },
  },
  matrix_ranking: {
    family: 'matrix',
    subtype: 'ranking',
    headings: H('Rank these'),
    answers: { rows: [{ text: 'A' }, { text: 'B' }, { text: 'C' }] },
    required: { type: 'all', amount: '0' },
  },
  matrix_menu: {
    family: 'matrix',
    subtype: 'menu',
    headings: H('Pick per row'),
    answers: {
      rows: [{ text: 'Row 1' }, { text: 'Row 2' }],
      cols: [
        { text: 'Col 1', choices: [{ text: 'x' }, { text: 'y' }] },
        { text: 'Col 2', choices: [{ text: 'z' }] },
      ],
    },
  },
  star_rating: {
    family: 'matrix',
    subtype: 'rating',
    headings: H('Stars?'),
    display_options: {
      display_type: 'emoji',
      display_subtype: 'star',
      custom_options: { color: '#D0021B', option_set: [] },
    },
    answers: { rows: [{ text: '' }], choices: [1, 2, 3, 4, 5].map((weight) => ({ text: '', weight })) },
  },
  open_single: {
    family: 'open_ended',
    subtype: 'single',
    headings: H('Your name?'),
    validation: { type: 'text_length', min: 1, max: 50 },
  },
  open_essay: { family: 'open_ended', subtype: 'essay', headings: H('Tell us more'), nickname: 'more' },
  open_multi: {
    family: 'open_ended',
    subtype: 'multi',
    headings: H('Two things'),
    answers: { rows: [{ text: 'First' }, { text: 'Second' }] },
  },
  open_numerical: {
    family: 'open_ended',
    subtype: 'numerical',
    headings: H('Split 100'),
    answers: { rows: [{ text: 'Work' }, { text: 'Play' }] },
    validation: { type: 'integer', min: 0, max: 100, sum: 100, sum_text: 'Must total 100.' },
  },
  slider: {
    family: 'open_ended',
    subtype: 'single',
    headings: H('How much?'),
    display_options: {
      display_type: 'slider',
      display_subtype: '',
      left_label: 'Little',
      right_label: 'Lots',
      custom_options: { starting_position: 50, step_size: 5 },
    },
    validation: { type: 'integer', min: 0, max: 100 },
  },
  file_upload: {
    family: 'open_ended',
    subtype: 'single',
    headings: H('Upload your CV'),
    display_options: { display_type: 'file_upload' },
  },
  demographic_us: {
    family: 'demographic',
    subtype: 'us',
    headings: H('Contact'),
    answers: { rows: [{ type: 'name', required: true }, { type: 'email' }] },
  },
  demographic_intl: { family: 'demographic', subtype: 'international', headings: H('Address') },
  datetime_both: {
    family: 'datetime',
    subtype: 'both',
    headings: H('When?'),
    answers: { rows: [{ text: 'Start' }] },
    validation: { type: 'date_intl' },
  },
  datetime_date: {
    family: 'datetime',
    subtype: 'date_only',
    headings: H('Birthday'),
    answers: { rows: [{ text: '' }] },
  },
  datetime_time: {
    family: 'datetime',
    subtype: 'time_only',
    headings: H('Time'),
    answers: { rows: [{ text: '' }] },
  },
  text_block: {
    family: 'presentation',
    subtype: 'descriptive_text',
    headings: H('<b>Welcome</b> to the survey'),
  },
  image_block: {
    family: 'presentation',
    subtype: 'image',
    headings: [{ heading: 'Logo', image: { url: 'https://example.com/logo.png' } }],
  },
};

/** Strips every id and href (for comparing a copy with its source). */
export function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(
          ([k]) =>
            !['id', 'href', 'preview', 'edit_url', 'collect_url', 'analyze_url', 'summary_url'].includes(k),
        )
        .map(([k, v]) => [k, withoutIds(v)]),
    );
  return value;
}
