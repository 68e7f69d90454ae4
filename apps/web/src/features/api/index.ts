export { API_BASE, ApiError, api, errorKeyOf, type RequestOptions, request } from './client';
export { getEarlyOr, requestEarly, takeArrived } from './early';
export { queryClient } from './queryClient';
