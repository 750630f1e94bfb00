import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { DatasetRecord, JobRecord } from '../../lineage/types';
import { loadAll, type Context } from '../context';
import { offsetAfter, pageInfo } from '../paging';
import { BrowseArgs, NamespacesArgs } from './args';
import { DatasetPage, JobPage, NamespacePage, toNamespace } from './types';

/** Browsing without a name: namespaces, then the datasets and jobs of one (or of all). */
@Resolver()
export class BrowseQueries {
  @Query(() => NamespacePage, { description: 'Namespaces that hold datasets or jobs, by name, with their counts; paged.' })
  async namespaces(@Args(() => NamespacesArgs) args: NamespacesArgs, @Ctx() ctx: Context): Promise<NamespacePage> {
    const offset = offsetAfter(args.after);
    const page = await ctx.services.browse.namespaces(offset, args.first);
    return { total: page.total, items: page.items.map(toNamespace), pageInfo: pageInfo(offset, page.items.length, page.total) };
  }

  @Query(() => DatasetPage, { description: 'Datasets of a namespace (or all), by name or most recently seen first; paged.' })
  async datasets(@Args(() => BrowseArgs) args: BrowseArgs, @Ctx() ctx: Context): Promise<{ total: number; items: DatasetRecord[]; pageInfo: ReturnType<typeof pageInfo> }> {
    const offset = offsetAfter(args.after);
    const page = await ctx.services.browse.datasets(args.namespace ?? null, args.orderBy, offset, args.first);
    return { total: page.total, items: await loadAll(ctx.loaders.dataset, page.ids), pageInfo: pageInfo(offset, page.ids.length, page.total) };
  }

  @Query(() => JobPage, { description: 'Jobs of a namespace (or all), by name or most recently seen first; paged.' })
  async jobs(@Args(() => BrowseArgs) args: BrowseArgs, @Ctx() ctx: Context): Promise<{ total: number; items: JobRecord[]; pageInfo: ReturnType<typeof pageInfo> }> {
    const offset = offsetAfter(args.after);
    const page = await ctx.services.browse.jobs(args.namespace ?? null, args.orderBy, offset, args.first);
    return { total: page.total, items: await loadAll(ctx.loaders.job, page.ids), pageInfo: pageInfo(offset, page.ids.length, page.total) };
  }
}
