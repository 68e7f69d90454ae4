export { MatchResultDialog } from './MatchResultDialog';
