import type { Category } from "@psm/core";

/**
 * What speaks for and against one category. Keys are lower-case words or phrases (words as the
 * tokenizer splits them: letters, digits, `+`, `#`, `&`); a trailing `*` matches any ending of
 * the last word. Values are weights: about 1 for a hint, 2 for typical words, 3 for terms that
 * name the service outright.
 */
export interface CategoryVocabulary {
  readonly terms: Readonly<Record<string, number>>;
  /** Evidence for a neighbouring category that shares this one's words. */
  readonly against?: Readonly<Record<string, number>>;
}

/** The answer when nothing in the document speaks for any category: the broadest one. */
export const DEFAULT_CATEGORY: Category = "strategic-consulting";

/** The classifier's vocabulary, one entry per category. Extend it here, not in code. */
// biome-ignore format: dense tables read better than one term a line
export const CATEGORY_VOCABULARY: Readonly<Record<Category, CategoryVocabulary>> = {
  "strategic-consulting": {
    terms: {
      strategy: 2, strategic: 2, "management consulting": 3, "business strategy": 3, "go to market": 2.5,
      "market entry": 3, "growth strategy": 3, "operating model": 3, transformation: 1.5, "change management": 2,
      "organizational design": 2.5, "organisational design": 2.5, okr: 2, okrs: 2, board: 1, executive: 1,
      ceo: 1, "leadership team": 1.5, roadmap: 0.5, "competitive analysis": 2.5, "post merger integration": 3,
      restructuring: 1.5, workshop: 1, workshops: 1, advisory: 1, "consult*": 1, "business plan": 2,
      "scenario planning": 3, "pricing strategy": 2.5, "stakeholder*": 1, "process improvement": 2, lean: 1,
      "operational excellence": 3, turnaround: 2.5, expansion: 1, "strategic planning": 3, "interim management": 3,
      "balanced scorecard": 3, "market analysis": 2, positioning: 1, "business model*": 2, "offsite*": 1.5,
    },
  },
  "software-development": {
    terms: {
      "software development": 3, "developer*": 2, "development": 1, "web application*": 2.5, "web app*": 2,
      "mobile app*": 2.5, ios: 1.5, android: 1.5, react: 2, "react native": 2, node: 1, typescript: 2,
      javascript: 2, python: 0.5, java: 1.5, kotlin: 2, swift: 1.5, golang: 2, rust: 1, backend: 2, "back end": 2,
      frontend: 2, "front end": 1.5, "full stack": 2.5, api: 1, apis: 1, "rest api*": 2, "microservice*": 2,
      code: 1, codebase: 2, "refactor*": 2, legacy: 1, devops: 2, "ci cd": 2, kubernetes: 1.5, docker: 1.5,
      "sprint*": 1.5, agile: 1, mvp: 2, saas: 1, software: 1.5, programming: 2, "unit test*": 2, "deploy*": 1,
      "custom software": 3, "app development": 3, wordpress: 1, erp: 1, "engineer*": 1, "bug*": 1.5,
      "pull request*": 2, "source code": 2, github: 1.5, "integration*": 0.5, "backlog": 1.5,
    },
    against: { "penetration": 2, "vulnerabilit*": 1, figma: 1, "wirefram*": 1, llm: 1, "machine learning": 1 },
  },
  "digital-marketing": {
    terms: {
      "digital marketing": 3, marketing: 2, seo: 3, "search engine optimi*": 3, sem: 2, ppc: 3, "google ads": 3,
      "paid social": 3, "social media": 2.5, "content marketing": 3, "email marketing": 3, "newsletter*": 1.5,
      "campaign*": 2, "brand awareness": 2.5, "lead generation": 2.5, leads: 1, roas: 3, cpc: 2.5, ctr: 2,
      "influencer*": 3, instagram: 2, tiktok: 2, "linkedin ads": 3, "facebook ads": 3, "meta ads": 3,
      "keyword*": 2, "backlink*": 3, "organic traffic": 3, traffic: 1, "audience*": 1, "funnel*": 1.5,
      copywriting: 2, "content calendar": 2.5, "ad spend": 2.5, advertising: 2, ads: 1.5, brand: 1,
      "growth marketing": 3, "marketing automation": 2.5, "retargeting": 3, affiliate: 2, "press release*": 2,
      "local seo": 3, "search rankings": 3, followers: 2, "community management": 2.5, "cost per lead": 3,
      "subscriber*": 1.5, "paid acquisition": 2.5, "open rate*": 2, "referral program*": 1.5,
    },
    against: { "employer branding": 2, "recruit*": 1 },
  },
  "ux-ui-design": {
    terms: {
      ux: 3, ui: 2, "user experience": 3, "user interface*": 3, usability: 3, "usability test*": 3,
      "user research": 3, "wirefram*": 3, "prototyp*": 2, figma: 3, "design system*": 3, "interaction design": 3,
      "visual design": 2.5, design: 1.5, "designer*": 2, "persona*": 2, "journey map*": 2.5, "user journey*": 2.5,
      "information architecture": 3, accessibility: 2, wcag: 2.5, "mockup*": 2.5, redesign: 2, "user testing": 3,
      "heuristic evaluation": 3, "onboarding flow*": 2, "style guide": 2, "component library": 2, "logo*": 1.5,
      "product design": 2.5, "service design": 2.5, screens: 1, "user interview*": 2, "micro interaction*": 2.5,
    },
  },
  "staffing-hr": {
    terms: {
      staffing: 3, "recruit*": 3, "talent acquisition": 3, hiring: 2.5, hire: 1.5, "candidate*": 2.5,
      "headhunt*": 3, "executive search": 3, "placement*": 2, "contractor*": 1.5, "temporary staff": 3,
      payroll: 1.5, "employer branding": 2.5, hr: 2.5, "human resources": 3, "people operations": 3,
      "employee*": 1.5, workforce: 2, "job description*": 2.5, "interview*": 1.5, "shortlist*": 2.5,
      "vacanc*": 2.5, retention: 1, "performance review*": 2, compensation: 1.5, salary: 1.5, salaries: 1.5,
      "hr polic*": 3, "staff augmentation": 3, "team augmentation": 2.5, "first year salary": 3,
      "placement fee": 3, "engagement survey*": 2, "talent": 1.5, "onboarding": 0.5, "freelancer*": 1,
      "job posting*": 2.5, "hiring manager*": 2.5,
      staff: 1.5, "shift*": 1.5, vetted: 1, "agency workers": 2, "locum*": 2.5,
    },
    against: { "user interview*": 2, usability: 1, "interview transcripts": 1 },
  },
  "data-analytics": {
    terms: {
      "data analytics": 3, analytics: 2, data: 1, "dashboard*": 2.5, "power bi": 3, tableau: 3, looker: 3,
      "business intelligence": 3, bi: 1.5, "kpi*": 1.5, sql: 2.5, "data warehouse*": 3, etl: 3, elt: 3,
      "data pipeline*": 3, "pipeline*": 1, dbt: 3, snowflake: 3, bigquery: 3, "data engineering": 3,
      reporting: 1.5, metrics: 1, "statistic*": 2, "data quality": 3, "data model*": 2.5, "visuali*": 2,
      "insight*": 1, "cohort*": 2, "churn analysis": 2.5, spreadsheets: 1, excel: 1, "data governance": 2.5,
      "analyst*": 2, lakehouse: 3, databricks: 2, "a b test*": 2, "single source of truth": 2.5,
    },
    against: { "chatbot*": 1.5, "llm*": 1.5, generative: 1.5, "penetration": 1 },
  },
  cybersecurity: {
    terms: {
      cybersecurity: 3, "cyber security": 3, security: 2, "penetration test*": 3, "pentest*": 3, "pen test*": 3,
      "vulnerabilit*": 3, soc: 2, "soc 2": 3, "iso 27001": 3, siem: 3, "threat*": 2, "incident response": 3,
      ransomware: 3, phishing: 3, "firewall*": 2.5, "endpoint*": 1.5, encryption: 2, "zero trust": 3,
      "red team*": 3, owasp: 3, malware: 3, "breach*": 2, "security audit*": 3, hardening: 2.5, "attack*": 1.5,
      "exploit*": 2, "identity and access": 2.5, iam: 2, mfa: 2, ciso: 3, secure: 1, cve: 3, "forensic*": 2,
      "awareness training": 2, "security posture": 3, "intrusion*": 2.5,
    },
  },
  "artificial-intelligence": {
    terms: {
      "artificial intelligence": 3, ai: 2.5, "machine learning": 3, ml: 2, "llm*": 3, "large language model*": 3,
      gpt: 2.5, "chatbot*": 3, generative: 2.5, genai: 3, neural: 2.5, "deep learning": 3, "computer vision": 3,
      nlp: 3, "natural language processing": 3, "model*": 1, "fine tun*": 3, rag: 2.5, "retrieval augmented": 3,
      "embedding*": 2.5, "prompt*": 2, "agent*": 1, inference: 2, "training data": 2, "predictive model*": 2.5,
      classification: 1.5, copilot: 2, openai: 2.5, pytorch: 3, tensorflow: 3, mlops: 3, "hugging face": 3,
      "vector database*": 3, "object detection": 3, "speech recognition": 3,
    },
  },
  "legal-consulting": {
    terms: {
      legal: 3, "lawyer*": 3, "attorney*": 3, "law firm": 3, counsel: 2.5, contract: 1.5, contracts: 1.5,
      "contract review": 3, gdpr: 2, compliance: 1, regulatory: 1.5, "intellectual property": 3,
      "trademark*": 3, "patent*": 3, copyright: 2.5, litigation: 3, "dispute*": 2, "terms of service": 2.5,
      "terms and conditions": 2, "privacy polic*": 2, "data protection": 2, nda: 2.5, ndas: 2.5,
      "employment law": 3, "corporate law": 3, incorporation: 2, "shareholder agreement*": 3, "legal advice": 3,
      liability: 2, "clause*": 2.5, jurisdiction: 2.5, "solicitor*": 3, "barrister*": 3, notary: 2.5,
      mediation: 2, arbitration: 2.5, legislation: 2, "data processing agreement*": 3, "ai act": 2, law: 1.5,
    },
  },
  "financial-services": {
    terms: {
      financial: 2, finance: 2, accounting: 3, "accountant*": 3, bookkeeping: 3, tax: 2.5, taxes: 2.5, vat: 2.5,
      "audit*": 1, cfo: 3, "fractional cfo": 3, "cash flow": 3, "budget*": 1, "forecast*": 1,
      "financial model*": 3, "valuation*": 2.5, "fundrais*": 2.5, "investor*": 1.5, "invoic*": 1,
      "financial statement*": 3, "balance sheet*": 3, "p&l": 3, "profit and loss": 3, ledger: 2.5, xero: 3,
      quickbooks: 3, datev: 3, ifrs: 3, gaap: 3, "year end": 2, "annual accounts": 3, "wealth management": 3,
      "investment*": 1.5, insurance: 2, "loan*": 2, credit: 1.5, "m&a": 2, treasury: 3, "reconciliation*": 3,
      "tax return*": 3, "payroll": 1, "pension*": 2, "capital": 1.5,
    },
    against: { "security audit*": 1 },
  },
};
