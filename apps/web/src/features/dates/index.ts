// Dates and times in the interface language: dayjs, following every language change (dayjs.ts).
// Its own feature so that the locale entry, which the first page's API client uses, stays free of
// dayjs: screens that format dates are lazy chunks.
export { dayjs } from './dayjs';
