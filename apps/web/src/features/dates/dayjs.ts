/**
 * dayjs set to the interface language. Import dayjs from here, not from 'dayjs': this module
 * follows every language change, and it is not part of the first load (screens that format
 * dates are lazy chunks anyway).
 */
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import relativeTime from 'dayjs/plugin/relativeTime';
import { i18n } from '../../i18n';

// Relative times ("3 minutes ago") are used across screens: one extension for all of them.
dayjs.extend(relativeTime);
dayjs.locale(i18n.language);
i18n.on('languageChanged', (language) => dayjs.locale(language));

export { dayjs };
