// Templates: employees and human resources, education, healthcare.
import {
  AGREE,
  contact,
  date,
  essay,
  grid,
  multi,
  nps,
  QUALITY,
  rating,
  SATISFIED,
  single,
  type Template,
  text,
} from './build.js';

export const peopleTemplates: Template[] = [
  {
    id: '1101',
    name: 'Employee Engagement',
    title: 'Employee Engagement Survey',
    description: 'Understand how connected and motivated your team feels.',
    category: 'human_resources',
    pages: [
      {
        questions: [
          rating(
            'How much do you agree with the following statements?',
            [
              'I am proud to work here',
              'I would recommend this company as a place to work',
              'I see myself working here in two years',
              'My work gives me a sense of accomplishment',
            ],
            AGREE,
          ),
          rating(
            'How much do you agree with the following statements about your manager?',
            [
              'My manager gives me useful feedback',
              'My manager supports my growth',
              'My manager recognises good work',
            ],
            AGREE,
          ),
          nps('How likely are you to recommend this company to a friend as a place to work?'),
          essay('What would make this a better place to work?'),
        ],
      },
    ],
  },
  {
    id: '1102',
    name: 'Exit Interview',
    title: 'Exit Interview',
    description: 'Learn why people leave, while they are willing to tell you.',
    category: 'human_resources',
    pages: [
      {
        questions: [
          multi(
            'What are your main reasons for leaving?',
            [
              'Compensation',
              'Career growth',
              'Management',
              'Work-life balance',
              'Relocation',
              'Company culture',
            ],
            'Other reason (please specify)',
          ),
          rating(
            'How satisfied were you with the following?',
            ['Pay and benefits', 'Training and development', 'Workload', 'Team relationships'],
            SATISFIED,
          ),
          single('Would you consider working here again in the future?', ['Yes', 'Maybe', 'No']),
          essay('What could we have done to keep you?'),
        ],
      },
    ],
  },
  {
    id: '1103',
    name: 'New Hire Onboarding',
    title: 'Onboarding Experience Survey',
    description: 'Check in with new employees after their first weeks.',
    category: 'human_resources',
    pages: [
      {
        questions: [
          single('How well prepared did you feel on your first day?', [
            'Very well prepared',
            'Well prepared',
            'Somewhat prepared',
            'Not prepared',
          ]),
          rating(
            'How much do you agree with each statement?',
            ['I understand what is expected of me', 'I have the tools I need', 'I know who to ask for help'],
            AGREE,
          ),
          essay('What was the most helpful part of your onboarding?'),
          essay('What was missing?'),
        ],
      },
    ],
  },
  {
    id: '1104',
    name: 'Training Evaluation',
    title: 'Training Evaluation',
    description: 'Evaluate a course or workshop right after it ends.',
    category: 'education',
    pages: [
      {
        questions: [
          text('Which session did you attend?'),
          rating(
            'Please rate the following.',
            ['Content', 'Trainer', 'Materials', 'Pace', 'Venue or platform'],
            QUALITY,
          ),
          single('How much of what you learned will you be able to use in your work?', [
            'All of it',
            'Most of it',
            'Some of it',
            'Very little',
            'None of it',
          ]),
          essay('What would you change about this training?'),
        ],
      },
    ],
  },
  {
    id: '1105',
    name: 'Course Evaluation',
    title: 'Course Evaluation',
    description: 'End-of-term feedback from students about a course and its teaching.',
    category: 'education',
    pages: [
      {
        questions: [
          rating(
            'How much do you agree with the following statements?',
            [
              'The course objectives were clear',
              'The workload was appropriate',
              'Assessments reflected the material taught',
              'The instructor was well prepared',
            ],
            AGREE,
          ),
          single('How many hours per week did you spend on this course outside class?', [
            '0–2',
            '3–5',
            '6–8',
            '9 or more',
          ]),
          essay('What did you like most about the course?'),
          essay('What could be improved?'),
        ],
      },
    ],
  },
  {
    id: '1106',
    name: 'Parent Feedback',
    title: 'Parent and Guardian Feedback',
    description: 'Ask families how the school is doing.',
    category: 'education',
    pages: [
      {
        questions: [
          single('Which grade is your child in?', [
            'Kindergarten',
            'Grades 1–3',
            'Grades 4–6',
            'Grades 7–9',
            'Grades 10–12',
          ]),
          grid(
            'How satisfied are you with the following?',
            [
              'Communication from teachers',
              'Safety at school',
              'Homework load',
              'Extracurricular activities',
            ],
            SATISFIED,
          ),
          essay('Is there anything the school should know?'),
        ],
      },
    ],
  },
  {
    id: '1107',
    name: 'Patient Satisfaction',
    title: 'Patient Satisfaction Survey',
    description: 'Feedback on a recent visit to a clinic or practice.',
    category: 'healthcare',
    pages: [
      {
        questions: [
          date('What was the date of your visit?'),
          rating(
            'Please rate the following.',
            [
              'Ease of booking',
              'Waiting time',
              'Friendliness of staff',
              'Explanation of your care',
              'Cleanliness',
            ],
            QUALITY,
          ),
          single('Did you feel listened to?', ['Yes, completely', 'Yes, to some extent', 'No']),
          nps('How likely are you to recommend this practice to friends and family?'),
          essay('Any other comments about your visit?'),
        ],
      },
    ],
  },
  {
    id: '1108',
    name: 'Health Screening Questionnaire',
    title: 'Pre-visit Health Questionnaire',
    description: 'A short questionnaire to complete before an appointment.',
    category: 'healthcare',
    pages: [
      {
        questions: [
          contact('Your details', ['name', 'email', 'phone']),
          multi('Do you currently have any of these symptoms?', [
            'Fever',
            'Cough',
            'Shortness of breath',
            'Headache',
            'None of these',
          ]),
          single('Are you taking any regular medication?', ['Yes', 'No']),
          essay('Please list any allergies or conditions we should know about.'),
        ],
      },
    ],
  },
];
