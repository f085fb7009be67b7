// The demo data set of `psm-server seed-demo`: invented firms and freelancers
// (addresses at example.com, reserved for examples), each with a few services,
// so that together they cover all ten categories with prices in each unit, and a few
// conversations. Kept apart from seed-demo.ts so it reads as data.
import type { Category, PriceUnit } from "@psm/core";

/** A demo listing, in core's input terms. */
export interface DemoListing {
  title: string;
  description: string;
  category: Category;
  price: number | null;
  /** What the price buys; fixed when absent. */
  priceUnit?: PriceUnit;
  condition?: string;
}

/** A demo account and what it offers. */
export interface DemoMember {
  email: string;
  displayName: string;
  listings: DemoListing[];
}

/** A message from one member to the author of another member's listing (by the listing's title). */
export interface DemoMessage {
  from: string;
  listing: string;
  content: string;
}

export const DEMO_MEMBERS: readonly DemoMember[] = [
  {
    email: "hello@northwind-advisory.example.com",
    displayName: "Northwind Advisory",
    listings: [
      {
        title: "Market entry strategy for the DACH region",
        description:
          "A six-week engagement for B2B software companies entering Germany, Austria and Switzerland: market sizing, pricing benchmarks, channel options and a go-to-market plan your board can sign off. Includes twelve customer interviews and a final workshop.",
        category: "strategic-consulting",
        price: 18500,
      },
      {
        title: "Operating model review for scale-ups",
        description:
          "For teams that doubled in a year: we map decision rights, meeting load and handovers, then propose a leaner structure. Two weeks on site or remote, with a written report and a follow-up session after ninety days.",
        category: "strategic-consulting",
        price: 9800,
      },
      {
        title: "Fractional CFO, two days a month",
        description:
          "Monthly management accounts, cash-flow forecast, board pack and investor updates for companies between seed and Series B. Minimum three months.",
        category: "financial-services",
        price: 3200,
        priceUnit: "month",
      },
    ],
  },
  {
    email: "team@brightpixel.example.com",
    displayName: "Brightpixel Studio",
    listings: [
      {
        title: "UX audit of your web application",
        description:
          "Heuristic review, five moderated usability sessions and a prioritised list of fixes with annotated screenshots. Delivered in ten working days, with a walkthrough call for your product team.",
        category: "ux-ui-design",
        price: 4200,
      },
      {
        title: "Design system starter in Figma",
        description:
          "Tokens, typography, colour, twenty core components and documentation, built from your existing product so developers recognise it. Handover includes a code-ready token export.",
        category: "ux-ui-design",
        price: 7600,
      },
      {
        title: "Landing page design and copy",
        description:
          "One conversion-focused landing page for a product launch: wireframe, copy, responsive design and two rounds of revisions.",
        category: "digital-marketing",
        price: 2400,
      },
    ],
  },
  {
    email: "contact@kestrel-engineering.example.com",
    displayName: "Kestrel Engineering",
    listings: [
      {
        title: "TypeScript API development, fixed scope",
        description:
          "A documented REST or GraphQL API in TypeScript on Node.js, with tests, OpenAPI description and CI, delivered in fixed-price milestones. PostgreSQL or SQLite storage; deployment to your cloud account.",
        category: "software-development",
        price: 24000,
      },
      {
        title: "Legacy PHP to Node.js migration assessment",
        description:
          "We read your codebase, measure it, and propose a step-by-step migration with estimates and risks. Two weeks, ending with a written plan and a prototype of the first slice.",
        category: "software-development",
        price: 6500,
      },
      {
        title: "Penetration test of a web application",
        description:
          "OWASP-based testing of one web application and its API by certified testers, with a report ranking findings by risk and a retest of fixes within thirty days.",
        category: "cybersecurity",
        price: 8900,
      },
    ],
  },
  {
    email: "info@lumen-analytics.example.com",
    displayName: "Lumen Analytics",
    listings: [
      {
        title: "Revenue dashboard in a week",
        description:
          "We connect your billing and CRM data to a warehouse and build the five charts your leadership asks for every Monday: MRR, churn, cohorts, pipeline and forecast.",
        category: "data-analytics",
        price: 5400,
      },
      {
        title: "Customer churn model",
        description:
          "A churn prediction model trained on your product usage and support data, with a plain-language explanation of the drivers and a monthly scored list for your success team.",
        category: "artificial-intelligence",
        price: 11000,
      },
      {
        title: "Data quality health check",
        description:
          "Three days reviewing pipelines, tests and definitions; you get a scorecard per source and the ten fixes that matter most.",
        category: "data-analytics",
        price: 2900,
      },
    ],
  },
  {
    email: "office@harbour-legal.example.com",
    displayName: "Harbour Legal",
    listings: [
      {
        title: "SaaS terms and data processing agreement",
        description:
          "Customer terms, privacy notice and a GDPR data processing agreement drafted for your product and reviewed with you in two calls. English or German.",
        category: "legal-consulting",
        price: 3500,
      },
      {
        title: "Employment contracts for your first hires",
        description:
          "Template employment contract, contractor agreement and IP assignment, adapted to your jurisdiction, with a short guide on when to use which.",
        category: "legal-consulting",
        price: 1900,
      },
    ],
  },
  {
    email: "people@tandem-talent.example.com",
    displayName: "Tandem Talent",
    listings: [
      {
        title: "Senior engineer search, success fee",
        description:
          "Retained search for senior and staff engineers in Europe: role definition, sourcing, first interviews and references. Fee due only when your candidate signs.",
        category: "staffing-hr",
        price: null,
      },
      {
        title: "Interview process design",
        description:
          "A structured interview loop for one role: scorecards, work-sample task and interviewer training, so decisions are faster and fairer.",
        category: "staffing-hr",
        price: 2200,
      },
    ],
  },
  {
    email: "mara.okafor@example.com",
    displayName: "Mara Okafor",
    listings: [
      {
        title: "LinkedIn and newsletter content for B2B founders",
        description:
          "Eight posts and two newsletter issues a month, written from interviews with you. I have written for founders in fintech, logistics and developer tools.",
        category: "digital-marketing",
        price: 1800,
        priceUnit: "month",
      },
      {
        title: "Prompt and workflow design for support teams",
        description:
          "I map your support team's repetitive replies and build reviewed AI drafting workflows with your existing help desk, with a measured before-and-after.",
        category: "artificial-intelligence",
        price: 140,
        priceUnit: "hour",
      },
    ],
  },
  {
    email: "jonas.weber@example.com",
    displayName: "Jonas Weber",
    listings: [
      {
        title: "ISO 27001 readiness coaching",
        description:
          "Gap analysis against ISO 27001, a risk register and the first policies, with fortnightly coaching until you are ready for the certification audit.",
        category: "cybersecurity",
        price: 950,
        priceUnit: "day",
      },
      {
        title: "Bookkeeping clean-up before fundraising",
        description:
          "Reconciliation of up to two years of accounts, categorised expenses and a clean trial balance your investors' accountants can read.",
        category: "financial-services",
        price: 2600,
      },
    ],
  },
];

export const DEMO_MESSAGES: readonly DemoMessage[] = [
  {
    from: "team@brightpixel.example.com",
    listing: "TypeScript API development, fixed scope",
    content:
      "Hi, one of our clients needs an API behind the app we are designing. Could you do a fixed price for about 15 endpoints with authentication?",
  },
  {
    from: "contact@kestrel-engineering.example.com",
    listing: "UX audit of your web application",
    content: "Would the audit cover the admin screens as well as the customer app? They share one login.",
  },
  {
    from: "mara.okafor@example.com",
    listing: "SaaS terms and data processing agreement",
    content: "Is a German version included in the price, or is it an extra?",
  },
  {
    from: "hello@northwind-advisory.example.com",
    listing: "Revenue dashboard in a week",
    content: "We would like this for a portfolio company on Stripe and HubSpot. Are you free in March?",
  },
];

/** The password of every demo account: a demo database is for trying the marketplace, never for production. */
export const DEMO_PASSWORD = "demo-password";
