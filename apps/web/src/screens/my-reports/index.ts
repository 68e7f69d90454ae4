export { MyReportsScreen as default } from './MyReportsScreen';
