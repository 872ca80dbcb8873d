import { forwardRef, useCallback, useContext, useMemo, type ComponentProps } from 'react';
import { matchResourceFromRoute, ResourceContext, type GoConfig, type ParseResponse, type RouterProvider } from '@refinedev/core';
import reactRouter from '@refinedev/react-router';
import { matchPath, useLocation, useParams } from 'react-router';
import { splitLocale } from '../../contract/routes.ts';
import { useLocalePath } from './locale.tsx';

/** An app path under the page's locale prefix (/en/...), unless it has one already. */
function useLocalized() {
  const to = useLocalePath();
  return useCallback((path: string) => (splitLocale(path).locale ? path : to(path)), [to]);
}

/** Refine's `go`: react-router's, the path under the page's locale prefix. */
function useLocalizedGo() {
  const go = reactRouter.go!();
  const localized = useLocalized();
  return useCallback((config: GoConfig) => go({ ...config, to: config.to === undefined ? undefined : localized(config.to) }), [go, localized]);
}

/**
 * Refine's `parse`: the resource, action and id of the path without its locale prefix; the query
 * as react-router's binding reads it (a list's `filters[0][field]=…`, its page as a number).
 */
function useLocalizedParse() {
  const parseQuery = reactRouter.parse!();
  const routeParams = useParams();
  const { pathname, search } = useLocation();
  const { resources } = useContext(ResourceContext);
  const bare = splitLocale(pathname).path;
  const { resource, action, matchedRoute } = useMemo(() => matchResourceFromRoute(bare, resources), [bare, resources]);
  const params = useMemo<Record<string, string | undefined>>(
    () => (Object.keys(routeParams).length === 0 && matchedRoute ? (matchPath(matchedRoute, bare)?.params ?? {}) : routeParams),
    [routeParams, matchedRoute, bare],
  );
  return useCallback((): ParseResponse => {
    const query = Object.fromEntries(new URLSearchParams(search));
    const { currentPage, pageSize, sorters, filters } = parseQuery().params ?? {};
    return {
      ...(resource && { resource }),
      ...(action && { action }),
      ...(params.id && { id: decodeURIComponent(params.id) }),
      pathname,
      params: { ...params, ...query, currentPage, pageSize, sorters, filters },
    };
  }, [resource, action, params, pathname, search, parseQuery]);
}

/** Refine's `Link`: react-router's, to the path under the page's locale prefix. */
const LocalizedLink = forwardRef<HTMLAnchorElement, ComponentProps<NonNullable<RouterProvider['Link']>>>(function LocalizedLink({ to, ...props }, ref) {
  const localized = useLocalized();
  const Link = reactRouter.Link!;
  return <Link ref={ref} {...props} to={localized(to)} />;
});

/**
 * Refine's react-router bindings, aware of our locale prefixes: the resources' routes are declared
 * once without a prefix (/dashboard/staff/...), links and redirects keep the page's (/en), and the
 * current resource is found from the path without it.
 */
export const routerProvider: RouterProvider = { ...reactRouter, go: useLocalizedGo, parse: useLocalizedParse, Link: LocalizedLink };
