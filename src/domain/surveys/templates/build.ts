// Small builders that keep the template data files readable: each returns a question body
// exactly as a client would POST it.
import type { QuestionInput } from '../question-schema.js';

export interface Template {
  id: string;
  name: string;
  title: string;
  description: string;
  category: string;
  pages: Array<{ title?: string; description?: string; questions: QuestionInput[] }>;
}

const h = (heading: string) => [{ heading }];

export const single = (heading: string, choices: string[], subtype = 'vertical'): QuestionInput => ({
  family: 'single_choice',
  subtype,
  headings: h(heading),
  answers: { choices: choices.map((text) => ({ text })) },
});

export const multi = (heading: string, choices: string[], other?: string): QuestionInput => ({
  family: 'multiple_choice',
  subtype: 'vertical',
  headings: h(heading),
  answers: { choices: choices.map((text) => ({ text })), ...(other ? { other: { text: other } } : {}) },
});

export const rating = (heading: string, rows: string[], scale: string[]): QuestionInput => ({
  family: 'matrix',
  subtype: 'rating',
  headings: h(heading),
  answers: {
    rows: rows.map((text) => ({ text })),
    choices: scale.map((text, i) => ({ text, weight: i + 1 })),
  },
});

export const grid = (heading: string, rows: string[], choices: string[]): QuestionInput => ({
  family: 'matrix',
  subtype: 'single',
  headings: h(heading),
  answers: { rows: rows.map((text) => ({ text })), choices: choices.map((text) => ({ text })) },
});

export const stars = (heading: string): QuestionInput => ({
  family: 'matrix',
  subtype: 'rating',
  headings: h(heading),
  display_options: { display_type: 'emoji', display_subtype: 'star' },
  answers: { rows: [{ text: '' }], choices: [1, 2, 3, 4, 5].map((weight) => ({ text: '', weight })) },
});

/** 0–10 "how likely are you to recommend" scale. */
export const nps = (heading: string): QuestionInput => ({
  family: 'matrix',
  subtype: 'rating',
  headings: h(heading),
  display_options: { left_label: 'Not at all likely', right_label: 'Extremely likely' },
  answers: {
    rows: [{ text: '' }],
    choices: Array.from({ length: 11 }, (_, i) => ({ text: String(i), weight: i })),
  },
});

export const essay = (heading: string): QuestionInput => ({
  family: 'open_ended',
  subtype: 'essay',
  headings: h(heading),
});
export const text = (heading: string): QuestionInput => ({
  family: 'open_ended',
  subtype: 'single',
  headings: h(heading),
});
export const date = (heading: string): QuestionInput => ({
  family: 'datetime',
  subtype: 'date_only',
  headings: h(heading),
  answers: { rows: [{ text: '' }] },
  validation: { type: 'date_us' },
});
export const contact = (
  heading: string,
  types: Array<'name' | 'email' | 'phone' | 'company'>,
): QuestionInput => ({
  family: 'demographic',
  subtype: 'international',
  headings: h(heading),
  answers: { rows: types.map((type) => ({ type })) },
});
export const intro = (heading: string): QuestionInput => ({
  family: 'presentation',
  subtype: 'descriptive_text',
  headings: h(heading),
});

export const AGREE = [
  'Strongly disagree',
  'Disagree',
  'Neither agree nor disagree',
  'Agree',
  'Strongly agree',
];
export const SATISFIED = ['Very dissatisfied', 'Dissatisfied', 'Neutral', 'Satisfied', 'Very satisfied'];
export const QUALITY = ['Poor', 'Fair', 'Good', 'Very good', 'Excellent'];
