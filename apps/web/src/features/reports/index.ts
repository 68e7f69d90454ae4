export { MyReports } from './MyReports';
export { ReportButton } from './ReportButton';
export type { ReportTarget } from './ReportDialog';
export { ReportIcon } from './ReportIcon';
export { needsDuration, needsMessage, outcomeKey, reportBody, resolveBody } from './rules';
