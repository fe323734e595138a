// Templates: customer feedback and market research.
import {
  AGREE,
  essay,
  grid,
  multi,
  nps,
  QUALITY,
  rating,
  SATISFIED,
  single,
  stars,
  type Template,
  text,
} from './build.js';

export const customerTemplates: Template[] = [
  {
    id: '1001',
    name: 'Customer Satisfaction',
    title: 'Customer Satisfaction Survey',
    description: 'Measure how satisfied customers are with your product, service and support.',
    category: 'customer_feedback',
    pages: [
      {
        questions: [
          single('Overall, how satisfied are you with our company?', SATISFIED),
          rating(
            'How would you rate us on the following?',
            ['Product quality', 'Value for money', 'Customer service', 'Ease of purchase'],
            QUALITY,
          ),
          nps('How likely is it that you would recommend our company to a friend or colleague?'),
          single('How long have you been a customer?', [
            'This is my first purchase',
            'Less than six months',
            'Six months to a year',
            '1–2 years',
            'More than 2 years',
          ]),
          essay('What is one thing we could do to improve your experience?'),
        ],
      },
    ],
  },
  {
    id: '1002',
    name: 'Net Promoter Score',
    title: 'Net Promoter Score Survey',
    description: 'The single recommendation question with a follow-up asking why.',
    category: 'customer_feedback',
    pages: [
      {
        questions: [
          nps('How likely is it that you would recommend us to a friend or colleague?'),
          essay('What is the main reason for your score?'),
        ],
      },
    ],
  },
  {
    id: '1003',
    name: 'Product Feedback',
    title: 'Product Feedback Survey',
    description: 'Learn how people use your product and what they would change.',
    category: 'customer_feedback',
    pages: [
      {
        questions: [
          single('How often do you use the product?', [
            'Every day',
            'A few times a week',
            'About once a week',
            'A few times a month',
            'Less often',
          ]),
          multi(
            'Which features do you use most?',
            ['Reporting', 'Sharing', 'Mobile app', 'Integrations', 'Notifications'],
            'Other (please specify)',
          ),
          stars('How would you rate the product overall?'),
          rating(
            'How much do you agree with each statement?',
            ['The product is easy to use', 'The product is reliable', 'The product meets my needs'],
            AGREE,
          ),
          essay('If you could change one thing about the product, what would it be?'),
        ],
      },
    ],
  },
  {
    id: '1004',
    name: 'Customer Support Follow-up',
    title: 'How Did We Do?',
    description: 'A short survey sent after a support request is closed.',
    category: 'customer_feedback',
    pages: [
      {
        questions: [
          single('Was your issue resolved?', ['Yes', 'Partly', 'No']),
          rating(
            'Please rate the support you received.',
            ['Speed of response', 'Knowledge of the agent', 'Courtesy'],
            QUALITY,
          ),
          single('How easy was it to get help?', [
            'Very easy',
            'Easy',
            'Neither easy nor difficult',
            'Difficult',
            'Very difficult',
          ]),
          essay('Is there anything else you would like to tell us?'),
        ],
      },
    ],
  },
  {
    id: '1005',
    name: 'Market Research: Brand Awareness',
    title: 'Brand Awareness Survey',
    description: 'Find out which brands people know and how they see yours.',
    category: 'market_research',
    pages: [
      {
        questions: [
          multi('Which of these brands have you heard of?', [
            'Brand A',
            'Brand B',
            'Brand C',
            'Brand D',
            'None of these',
          ]),
          single('Where did you first hear about us?', [
            'Search engine',
            'Social media',
            'Friend or colleague',
            'Advertisement',
            'News article',
            'Other',
          ]),
          grid(
            'How well does each word describe our brand?',
            ['Trustworthy', 'Innovative', 'Affordable', 'Friendly'],
            ['Not at all', 'Slightly', 'Moderately', 'Very well', 'Extremely well'],
          ),
          text('What three words come to mind when you think of us?'),
        ],
      },
    ],
  },
  {
    id: '1006',
    name: 'Market Research: Pricing',
    title: 'Pricing Survey',
    description: 'Gauge price sensitivity and perceived value for a product or service.',
    category: 'market_research',
    pages: [
      {
        questions: [
          single('At what monthly price would this product be so cheap that you would doubt its quality?', [
            'Under $5',
            '$5–$9',
            '$10–$19',
            '$20–$49',
            '$50 or more',
          ]),
          single('At what monthly price would it start to seem expensive, though still worth considering?', [
            'Under $10',
            '$10–$19',
            '$20–$49',
            '$50–$99',
            '$100 or more',
          ]),
          single('How would you rate the value for money of our current plans?', QUALITY),
          multi('Which payment options would you prefer?', [
            'Monthly',
            'Yearly',
            'Pay per use',
            'One-time purchase',
          ]),
          essay('What would make our pricing more attractive to you?'),
        ],
      },
    ],
  },
  {
    id: '1007',
    name: 'Website Feedback',
    title: 'Website Feedback Survey',
    description: 'Ask visitors whether they found what they came for.',
    category: 'customer_feedback',
    pages: [
      {
        questions: [
          single('What was the main purpose of your visit today?', [
            'Research a product',
            'Make a purchase',
            'Get support',
            'Find contact information',
            'Other',
          ]),
          single('Did you find what you were looking for?', ['Yes', 'Partly', 'No']),
          rating(
            'How would you rate the website on the following?',
            ['Ease of navigation', 'Visual design', 'Page loading speed', 'Quality of content'],
            QUALITY,
          ),
          essay('How could we improve the website?'),
        ],
      },
    ],
  },
];
