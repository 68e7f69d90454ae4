// Shared set-up for the web unit tests. Testing Library waits 1 s by default; MUI transitions on a
// busy two-core CI machine (PostgreSQL and Synapse running alongside) can take longer.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
