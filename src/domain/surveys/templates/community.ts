// Templates: events, community, non-profit.
import {
  AGREE,
  contact,
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

export const communityTemplates: Template[] = [
  {
    id: '1201',
    name: 'Event Feedback',
    title: 'Event Feedback Survey',
    description: 'What attendees thought of your event, while it is fresh.',
    category: 'events',
    pages: [
      {
        questions: [
          stars('How would you rate the event overall?'),
          rating(
            'Please rate the following.',
            ['Speakers', 'Sessions', 'Venue', 'Food and drink', 'Organisation'],
            QUALITY,
          ),
          single('Would you attend this event again?', [
            'Definitely',
            'Probably',
            'Not sure',
            'Probably not',
            'Definitely not',
          ]),
          essay('What should we do differently next time?'),
        ],
      },
    ],
  },
  {
    id: '1202',
    name: 'Event Registration',
    title: 'Event Registration',
    description: 'Collect registrations with sessions and dietary needs.',
    category: 'events',
    pages: [
      {
        questions: [
          contact('Your contact information', ['name', 'company', 'email', 'phone']),
          multi('Which sessions will you attend?', [
            'Morning keynote',
            'Workshop A',
            'Workshop B',
            'Panel discussion',
            'Evening reception',
          ]),
          single('Dietary requirements', ['None', 'Vegetarian', 'Vegan', 'Gluten free', 'Other']),
          text('Anything else we should know?'),
        ],
      },
    ],
  },
  {
    id: '1203',
    name: 'Webinar Feedback',
    title: 'Webinar Feedback',
    description: 'A quick check on an online session.',
    category: 'events',
    pages: [
      {
        questions: [
          single('How relevant was the webinar to you?', [
            'Extremely relevant',
            'Very relevant',
            'Somewhat relevant',
            'Not very relevant',
            'Not at all relevant',
          ]),
          rating('Please rate the following.', ['Presenter', 'Content', 'Audio and video quality'], QUALITY),
          essay('Which topics would you like us to cover next?'),
        ],
      },
    ],
  },
  {
    id: '1204',
    name: 'Community Needs Assessment',
    title: 'Community Needs Survey',
    description: 'Ask residents which services matter most to them.',
    category: 'community',
    pages: [
      {
        questions: [
          text('Which neighbourhood do you live in?'),
          grid(
            'How important is each of the following to you?',
            ['Public transport', 'Parks and green space', 'Affordable housing', 'Public safety', 'Libraries'],
            ['Not important', 'Slightly important', 'Important', 'Very important'],
          ),
          rating(
            'How satisfied are you with these local services?',
            ['Waste collection', 'Road maintenance', 'Street lighting'],
            SATISFIED,
          ),
          essay('What is the one change that would most improve your community?'),
        ],
      },
    ],
  },
  {
    id: '1205',
    name: 'Volunteer Feedback',
    title: 'Volunteer Experience Survey',
    description: 'Keep volunteers coming back by asking what works.',
    category: 'non_profit',
    pages: [
      {
        questions: [
          single('How long have you volunteered with us?', [
            'Less than 3 months',
            '3–12 months',
            '1–3 years',
            'More than 3 years',
          ]),
          rating(
            'How much do you agree with each statement?',
            [
              'I feel appreciated',
              'I received enough training',
              'My time is used well',
              'I know how my work helps',
            ],
            AGREE,
          ),
          nps('How likely are you to recommend volunteering with us to a friend?'),
          essay('How could we support you better?'),
        ],
      },
    ],
  },
  {
    id: '1206',
    name: 'Donor Feedback',
    title: 'Donor Survey',
    description: 'Understand why supporters give and how they want to hear from you.',
    category: 'non_profit',
    pages: [
      {
        questions: [
          multi(
            'Why do you support our organisation?',
            [
              'I believe in the cause',
              'A personal connection',
              'Recommended by someone I know',
              'Tax benefits',
              'Our impact reports',
            ],
            'Another reason (please specify)',
          ),
          single('How would you prefer to hear from us?', [
            'Email',
            'Post',
            'Phone',
            'Social media',
            'I prefer not to be contacted',
          ]),
          single('How well do we explain how donations are used?', QUALITY),
          essay('What would encourage you to give again?'),
        ],
      },
    ],
  },
  {
    id: '1207',
    name: 'Member Satisfaction',
    title: 'Membership Survey',
    description: 'For clubs and associations: is membership worth it?',
    category: 'community',
    pages: [
      {
        questions: [
          single('How satisfied are you with your membership?', SATISFIED),
          multi('Which member benefits do you use?', [
            'Newsletter',
            'Events',
            'Discounts',
            'Online community',
            'Training',
          ]),
          single('Do you plan to renew your membership?', ['Yes', 'Not sure', 'No']),
          essay('What new benefit would you most like to see?'),
        ],
      },
    ],
  },
];
