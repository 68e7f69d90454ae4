export { API_BASE, ApiError, api, errorKeyOf, type RequestOptions, request } from './client';
export { queryClient } from './queryClient';
