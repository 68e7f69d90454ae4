export { NotFoundScreen as default } from './NotFoundScreen';
